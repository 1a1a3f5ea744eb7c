import fs from "node:fs";
import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import type { Plugin } from "vite";
import { describe, expect, it } from "vitest";
import { ISLANDS_ENTRY, type IslandAssets } from "../../islands.vite";
import { HMR_RUNTIME_MODULE_ID } from "../../react-router-internals.vite";

/**
 * What islands.vite.ts relies on in React Router's Vite plugin beyond its
 * documented options (react-router-internals.vite.ts, ADR 018), checked
 * against the installed @react-router/dev and the production build (npm run
 * build; `npm test` builds first). A React Router upgrade that changes one
 * of them fails here.
 */
const root = path.resolve(import.meta.dirname, "../..");
const clientDir = path.join(root, "build/client");
const serverDir = path.join(root, "build/server");

type Hook = (this: unknown, ...args: unknown[]) => unknown;
const handlerOf = (hook: unknown): Hook | undefined =>
  typeof hook === "function" ? (hook as Hook) : (hook as { handler?: Hook } | undefined)?.handler;

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).map((name) => path.join(dir, name));
}

describe("React Router's internals that the islands build relies on", () => {
  it("its plugin serves React Refresh's preamble at the virtual module the islands load in development", async () => {
    const plugins = [reactRouter()].flat(Infinity) as Plugin[];
    let code: unknown;
    for (const plugin of plugins) {
      let resolved: unknown;
      try {
        resolved = await handlerOf(plugin.resolveId)?.call({}, HMR_RUNTIME_MODULE_ID, undefined, {});
      } catch {
        continue; // a hook that needs the resolved config; not the one we look for
      }
      if (resolved !== `\0${HMR_RUNTIME_MODULE_ID}`) continue;
      code = await handlerOf(plugin.load)?.call({}, resolved);
      break;
    }
    expect(code, `no React Router plugin answers ${HMR_RUNTIME_MODULE_ID}`).toEqual(expect.any(String));
    // What @vitejs/plugin-react's transformed modules check before they run.
    expect(code).toContain("injectIntoGlobalHook");
    expect(code).toContain("__vite_plugin_react_preamble_installed__");
  });

  it("the client build holds the islands entry, and its Vite manifest is gone once the build ends", () => {
    const assets = fs.readdirSync(path.join(clientDir, "assets"));
    expect(assets.filter((name) => /^hydrate-islands-[\w-]+\.js$/.test(name))).toHaveLength(1);
    // The server build read it (islands.vite.ts); React Router deletes it, so it is never served.
    expect(fs.existsSync(path.join(clientDir, ".vite", "manifest.json"))).toBe(false);
  });

  it("the server build carries the islands' file names, read from the client manifest", () => {
    const entry = fs.readdirSync(path.join(clientDir, "assets")).find((name) => name.startsWith("hydrate-islands-"));
    // virtual:islands-assets (islands.vite.ts), as the server build inlined it.
    const literal = filesUnder(serverDir)
      .filter((file) => file.endsWith(".js"))
      .map((file) => /\{\s*"entry":\s*"[^"]*"[^}]*\}/.exec(fs.readFileSync(file, "utf8"))?.[0])
      .find(Boolean);
    expect(literal, "no server file holds the islands' assets").toBeDefined();
    const assets = JSON.parse(literal!) as IslandAssets;
    expect(assets.entry, ISLANDS_ENTRY).toBe(`/assets/${entry}`);
    expect(assets.preload.length).toBeGreaterThan(0);
    expect(assets.hoverPreload.some((file) => file.startsWith("/assets/tip-radix-"))).toBe(true);
    for (const file of [assets.entry, ...assets.preload, ...assets.hoverPreload]) {
      expect(fs.existsSync(path.join(clientDir, file)), file).toBe(true);
    }
  });
});
