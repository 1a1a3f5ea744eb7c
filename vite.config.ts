import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { islandsPlugin } from "./islands.vite.ts";

export default defineConfig(({ isSsrBuild }) => ({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  plugins: [tailwindcss(), reactRouter(), islandsPlugin()],
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
