import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // The server build has two entries (server/main.ts and server/cli.ts): build/server/index.js and cli.js.
  serverBuildFile: "[name].js",
} satisfies Config;
