import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // The server build has two entries (server/main.ts and server/cli.ts): build/server/index.js and cli.js.
  serverBuildFile: "[name].js",
  // Middleware and typed context (docs/architecture.md): the admin's sign-in check runs once, before any loader.
  future: { v8_middleware: true },
  // A form posted from a page whose Referrer-Policy is no-referrer (a booking's link, ADR 071) says
  // `Origin: null`, even to its own site. server/request-checks.ts refuses such a post unless the
  // browser's Sec-Fetch-Site says same-origin, before React Router runs; this lets React Router's own
  // check take it then, as it takes a post whose Origin names the site.
  allowedActionOrigins: ["null"],
} satisfies Config;
