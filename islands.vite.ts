import fs from "node:fs";
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
 * first wanted. It also hands over the text of the site's stylesheet, which
 * public pages carry inline (ADR 031). What it needs from React Router beyond
 * its documented options lives in react-router-internals.vite.ts.
 */
export const ISLANDS_ENTRY = "app/islands/hydrate-islands.tsx";
/** Loaded before hydrating where a pointer can hover (components/ui/tip.tsx). */
export const TOOLTIP_MODULE = "app/components/ui/tip-radix.tsx";
/** Its stylesheet (app/app.css) is the one public pages carry inline. */
const ROOT_MODULE = "app/root.tsx";

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

/**
 * The stylesheet public pages carry inline (ADR 031): the root's CSS, which is
 * app.css and all of Tailwind's output. Public pages render no <Links/>, so a
 * stylesheet that another module brought into the client build would never
 * reach them: the build stops instead of shipping unstyled pages.
 */
function publicStylesheet(manifest: Record<string, ManifestChunk>, clientOutDir: string): string {
  // React Router lists the root under more than one key (its module, and the route chunk split from it).
  const moduleOf = (key: string) => key.split("?")[0];
  const rootFiles = new Set(
    Object.entries(manifest).flatMap(([key, chunk]) => (moduleOf(key) === ROOT_MODULE ? (chunk.css ?? []) : [])),
  );
  const strays = Object.entries(manifest).flatMap(([key, chunk]) =>
    (chunk.css ?? []).filter((file) => !rootFiles.has(file)).map((file) => `${file} (from ${key})`),
  );
  if (strays.length > 0) {
    throw new Error(
      `Public pages inline only ${ROOT_MODULE}'s stylesheet (ADR 031); move these styles into app/app.css: ${strays.join(", ")}`,
    );
  }
  if (rootFiles.size === 0) throw new Error(`${ROOT_MODULE} has no stylesheet in the client build`);
  const css = [...rootFiles].map((file) => fs.readFileSync(path.join(clientOutDir, file), "utf8")).join("\n");
  // It goes into a <style> element as it is: this would end the element early.
  if (/<\/style/i.test(css)) throw new Error("The stylesheet contains </style, which cannot be inlined");
  return css;
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
        // Vite serves the stylesheet itself in development (React Router's <Links/>).
        return `export default ${JSON.stringify(assets)};\nexport const stylesheet = undefined;`;
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
      const stylesheet = publicStylesheet(manifest, path.resolve(root, clientOutDir));
      return `export default ${JSON.stringify(assets)};\nexport const stylesheet = ${JSON.stringify(stylesheet)};`;
    },
  };
}
