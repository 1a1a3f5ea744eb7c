import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { islandsPlugin } from "./islands.vite.ts";

export default defineConfig(({ isSsrBuild }) => ({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  plugins: [tailwindcss(), reactRouter(), islandsPlugin()],
  // The server build carries its dependencies (ADR 081): a start loads a few
  // files instead of some 1,400 from node_modules, half the CPU it took.
  // Left outside: native code (better-sqlite3, sharp), and what finds files
  // of its own beside it at run time (tinypool's process entry, pino's
  // transports, pg's optional native binding).
  // The built server is production code, however it is started (npm start
  // sets no NODE_ENV): React's server renderer, Express and the rest are
  // built with their production branches only. React's development build
  // rendered every page with its checks and warnings, and was compiled at
  // every start.
  define: isSsrBuild ? { "process.env.NODE_ENV": JSON.stringify("production") } : undefined,
  ssr: isSsrBuild
    ? { noExternal: true, external: ["better-sqlite3", "sharp", "tinypool", "pino", "pino-http", "pg"] }
    : undefined,
  build: isSsrBuild
    ? {
        target: "node20",
        rollupOptions: {
          input: {
            index: "./server/main.ts",
            cli: "./server/cli.ts",
            "markdown-worker": "./server/markdown-worker.ts",
            "share-card-worker": "./server/share-card-worker.ts",
          },
        },
      }
    : undefined,
}));
