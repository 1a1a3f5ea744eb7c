import path from "node:path";
import type { Plugin } from "vite";
import { hmrRuntimeUrl, readClientManifest, type ManifestChunk } from "./react-router-internals.vite.ts";

/**
 * Public pages hydrate as islands (ADR 018): React Router renders them on the
 * server, and the browser loads one small entry that hydrates only their
 * interactive parts, without React Router's client runtime.
 *
 * This plugin adds that entry to the client build next to React Router's own,
 * and tells the server build its file names through `virtual:islands-assets`:
 * the entry and the chunks it imports (preloaded), and the tooltip chunk that
 * hover-capable screens preload. The menu and the contact modal load when
 * first wanted. What it needs from React Router beyond its documented
 * options lives in react-router-internals.vite.ts.
 */
export const ISLANDS_ENTRY = "app/islands/hydrate-islands.tsx";
/** Loaded before hydrating where a pointer can hover (app/islands/hydrate-islands.tsx). */
const TOOLTIP_MODULE = "app/components/ui/tip-radix.tsx";

const VIRTUAL_ID = "virtual:islands-assets";
const RESOLVED_ID = `\0${VIRTUAL_ID}`;

export interface IslandAssets {
  /** The module script every public page loads. */
  entry: string;
  /** Chunks the entry imports, for <link rel="modulepreload">. */
  preload: string[];
  /** The tooltip chunk and what it adds, preloaded only where `(any-hover: hover)` matches. */
  hoverPreload: string[];
  /** In development only: React Refresh's runtime, which the transformed modules expect. */
  devPreamble?: string;
}

function staticImports(manifest: Record<string, ManifestChunk>, key: string, seen = new Set<string>()): Set<string> {
  for (const imported of manifest[key]?.imports ?? []) {
    if (seen.has(imported)) continue;
    seen.add(imported);
    staticImports(manifest, imported, seen);
  }
  return seen;
}

export function islandsPlugin(): Plugin {
  let root = process.cwd();
  let command: "build" | "serve" = "build";
  let ssrBuild = false;
  let clientOutDir = "build/client";
  let base = "/";

  return {
    name: "site-islands",
    enforce: "post",
    config() {
      // In development, let Vite find the islands' dependencies up front: one
      // discovered at first use (the tooltip, the menu, the contact modal)
      // would make it re-optimise and load a second copy of React.
      return { optimizeDeps: { entries: [ISLANDS_ENTRY, "app/components/**/*.tsx"] } };
    },
    configResolved(config) {
      root = config.root;
      command = config.command;
      ssrBuild = Boolean(config.build.ssr);
      base = config.base;
      if (!ssrBuild) clientOutDir = config.build.outDir;
    },
    options(options) {
      if (command !== "build" || ssrBuild) return;
      const entry = path.resolve(root, ISLANDS_ENTRY);
      const input = options.input;
      if (Array.isArray(input)) return { ...options, input: [...input, entry] };
      if (input && typeof input === "object") return { ...options, input: { ...input, islands: entry } };
      return { ...options, input: input ? [input, entry] : [entry] };
    },
    resolveId(id) {
      return id === VIRTUAL_ID ? RESOLVED_ID : undefined;
    },
    load(id) {
      if (id !== RESOLVED_ID) return;
      if (command === "serve") {
        const assets: IslandAssets = {
          entry: `${base}${ISLANDS_ENTRY}`,
          preload: [],
          hoverPreload: [],
          devPreamble: hmrRuntimeUrl(base),
        };
        return `export default ${JSON.stringify(assets)};`;
      }
      const manifest = readClientManifest(path.resolve(root, clientOutDir));
      const chunk = manifest[ISLANDS_ENTRY];
      if (!chunk) throw new Error(`${ISLANDS_ENTRY} is missing from the client build`);
      const url = (key: string) => `${base}${manifest[key]!.file}`;
      const entryImports = staticImports(manifest, ISLANDS_ENTRY);
      const tooltipChunks = [TOOLTIP_MODULE, ...staticImports(manifest, TOOLTIP_MODULE)].filter(
        (key) => manifest[key] && !entryImports.has(key),
      );
      const assets: IslandAssets = {
        entry: `${base}${chunk.file}`,
        preload: [...entryImports].map(url),
        hoverPreload: tooltipChunks.map(url),
      };
      return `export default ${JSON.stringify(assets)};`;
    },
  };
}
