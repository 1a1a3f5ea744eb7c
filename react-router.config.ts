import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // The server build has two entries (server/main.ts and server/cli.ts): build/server/index.js and cli.js.
  serverBuildFile: "[name].js",
  // Middleware and typed context (docs/architecture.md): the admin's sign-in check runs once, before any loader.
  future: { v8_middleware: true },
} satisfies Config;
