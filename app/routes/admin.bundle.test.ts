import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * ENGINEERING.md / issue 5: the admin is its own chunk; none of its code, nor
 * the markdown libraries, is in the JavaScript of the public pages. Reads the
 * production build (npm run build) through React Router's asset manifest.
 */
const clientDir = path.resolve(import.meta.dirname, "../../build/client");

interface Manifest {
  entry: { module: string; imports: string[] };
  routes: Record<string, { id: string; path?: string; module: string; imports?: string[] }>;
}

function readManifest(): Manifest {
  const assets = path.join(clientDir, "assets");
  const file = fs.readdirSync(assets).find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!file) throw new Error("build/client has no React Router manifest: run npm run build first");
  const source = fs.readFileSync(path.join(assets, file), "utf8");
  return JSON.parse(source.slice(source.indexOf("=") + 1).replace(/;\s*$/, "")) as Manifest;
}

const read = (asset: string) => fs.readFileSync(path.join(clientDir, asset), "utf8");

/** Every JavaScript file a page of these routes loads (entry, root and the route, with their imports). */
function filesFor(manifest: Manifest, routeIds: string[]): Set<string> {
  const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
  for (const id of ["root", ...routeIds]) {
    const route = manifest.routes[id];
    if (!route) throw new Error(`no route ${id} in the manifest`);
    files.add(route.module);
    for (const imported of route.imports ?? []) files.add(imported);
  }
  return files;
}

const PUBLIC_ROUTES = ["home", "home-alias", "catch-all", "routes/blog", "routes/blog.$slug", "routes/about"];
const ADMIN_MARKERS = ["Saving...", "Are you sure you want to delete this post?", "/api/admin/", "Create New Post"];
const MARKDOWN_MARKERS = ["micromark", "mdast", "hast-util", "rehype", "remark", "unified"];

describe("client bundles", () => {
  const manifest = readManifest();

  it("the admin screen is a chunk of its own, holding the editor", () => {
    const admin = manifest.routes["routes/admin"]!;
    const source = read(admin.module);
    for (const marker of ADMIN_MARKERS) expect(source).toContain(marker);
  });

  it.each(PUBLIC_ROUTES)("the public route %s loads no admin code and no markdown library", (routeId) => {
    for (const file of filesFor(manifest, [routeId])) {
      const source = read(file);
      for (const marker of [...ADMIN_MARKERS, ...MARKDOWN_MARKERS]) {
        expect(source.includes(marker), `${file} contains "${marker}"`).toBe(false);
      }
    }
  });

  it.each(PUBLIC_ROUTES)("the public route %s loads no validation library (zod stays on the server)", (routeId) => {
    for (const file of filesFor(manifest, [routeId])) {
      // zod's own probe for eval, which the CSP also refuses.
      expect(read(file).includes("jitless"), `${file} contains zod`).toBe(false);
    }
  });

  it("no client file at all carries the markdown pipeline (the preview renders on the server)", () => {
    const assets = fs.readdirSync(path.join(clientDir, "assets")).filter((name) => name.endsWith(".js"));
    for (const name of assets) {
      const source = read(`/assets/${name}`);
      expect(source.includes("micromark"), `${name} contains micromark`).toBe(false);
    }
  });
});
