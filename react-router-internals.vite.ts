import fs from "node:fs";
import path from "node:path";

/**
 * Everything the islands plugin (islands.vite.ts, ADR 018) relies on that
 * React Router's Vite plugin does but does not document. Nothing else in the
 * build reads React Router's internals. app/islands/react-router-internals.test.ts
 * checks each assumption against the installed @react-router/dev and the
 * build, so an upgrade that breaks one fails there, not in a visitor's browser.
 * Read from @react-router/dev 7.18.4.
 */

/**
 * In development, React Router's virtual module that installs React Refresh's
 * runtime: its own <Scripts> loads it before any transformed module, which
 * expects it. Public pages load no <Scripts>, so they load it themselves.
 */
export const HMR_RUNTIME_MODULE_ID = "virtual:react-router/inject-hmr-runtime";

/** The URL the development server answers that module at (Vite's `/@id/` form of a `\0` id). */
export function hmrRuntimeUrl(base: string): string {
  return `${base}@id/__x00__${HMR_RUNTIME_MODULE_ID}`;
}

export interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}

/**
 * During the server build: the client build's Vite manifest, keyed by source
 * path. React Router turns on `build.manifest` for its client build, builds
 * the client before the server, and deletes `.vite/manifest.json` from
 * build/client only after both, so it is never served.
 */
export function readClientManifest(clientOutDir: string): Record<string, ManifestChunk> {
  const manifestPath = path.join(clientOutDir, ".vite", "manifest.json");
  if (!fs.existsSync(manifestPath)) {
    throw new Error(
      `${manifestPath} is missing: React Router's client build no longer leaves it for the server build (react-router-internals.vite.ts)`,
    );
  }
  return JSON.parse(fs.readFileSync(manifestPath, "utf8")) as Record<string, ManifestChunk>;
}
