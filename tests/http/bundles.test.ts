import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmPage, newsletterPage, unsubscribePage } from "../../app/content/newsletter";
import { subscribeForm } from "../../app/content/newsletter-form";
import { startSqliteServer, type TestServer } from "../support/server";

/**
 * ENGINEERING.md / issues 5 and 8: the admin is its own chunk; the public
 * pages load no admin code, no markdown or validation library and no React
 * Router runtime (they hydrate as islands, ADR 018), and their first-load
 * JavaScript stays under 100 KB gzip. Reads the production build (npm run
 * build), and the pages as the built server sends them.
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

const ADMIN_MARKERS = ["Saving...", "Are you sure you want to delete this post?", "/api/admin/", "Create New Post"];
const MARKDOWN_MARKERS = ["micromark", "mdast", "hast-util", "rehype", "remark", "unified"];
/** Set by React Router's client runtime, which public pages do not load (ADR 018). */
const ROUTER_MARKER = "__reactRouterVersion";
/** Issue 8: first-load JavaScript of public pages under 100 KB gzip. */
const FIRST_LOAD_BUDGET_BYTES = 100 * 1024;

const gzipSize = (asset: string) => zlib.gzipSync(fs.readFileSync(path.join(clientDir, asset))).length;

/** The chunks a file names: its static and dynamic imports and their preload lists. */
function referencedChunks(asset: string): string[] {
  return [...read(asset).matchAll(/(?:\.\/|assets\/)([\w.-]+\.js)\b/g)].map((match) => `/assets/${match[1]}`);
}

/** Every chunk a page can ever load from these files, now or on first use. */
function reachable(assets: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...assets];
  while (queue.length > 0) {
    const asset = queue.pop()!;
    if (seen.has(asset)) continue;
    seen.add(asset);
    queue.push(...referencedChunks(asset));
  }
  return seen;
}

interface PageScripts {
  /** Scripts every screen loads with the page: script tags, modulepreloads, and what the islands loader loads. */
  always: string[];
  /** Preloaded only where a media query matches (tooltips, on screens that can hover). */
  hover: string[];
  html: string;
}

/** Files named by one of the islands loader's data attributes (app/islands/load-islands.ts). */
function loaderFiles(html: string, attribute: string): string[] {
  const loader = /<script\s[^>]*\bdata-modules="[^>]*>/.exec(html)?.[0] ?? "";
  return (new RegExp(`\\b${attribute}="([^"]*)"`).exec(loader)?.[1] ?? "").split(" ").filter(Boolean);
}

function scriptsOf(html: string): PageScripts {
  // Public pages load their islands once they have painted (ADR 031), from the loader's list.
  const always = [...loaderFiles(html, "data-modules"), ...loaderFiles(html, "data-preload")];
  const hover = loaderFiles(html, "data-hover-preload");
  // Any script or preload in the markup itself counts as well.
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
    const src = /\b(?:src|href)="(\/assets\/[^"]+\.js)"/.exec(tag)?.[1];
    if (!src || (tag.startsWith("<link") && !tag.includes('rel="modulepreload"'))) continue;
    (/\bmedia="/.test(tag) ? hover : always).push(src);
  }
  return { always, hover, html };
}

describe("client bundles", () => {
  const manifest = readManifest();

  it("the admin screen is a chunk of its own, holding the editor", () => {
    // The editor's parts shared by every kind of document (ADR 065) are a
    // chunk the posts screen imports; no public page loads any of them (below).
    const admin = manifest.routes["routes/admin/posts/route"]!;
    const source = [admin.module, ...(admin.imports ?? [])].map(read).join("\n");
    for (const marker of ADMIN_MARKERS) expect(source).toContain(marker);
  });

  it("no client file at all carries the markdown pipeline (the preview renders on the server)", () => {
    const assets = fs.readdirSync(path.join(clientDir, "assets")).filter((name) => name.endsWith(".js"));
    for (const name of assets) {
      const source = read(`/assets/${name}`);
      expect(source.includes("micromark"), `${name} contains micromark`).toBe(false);
    }
  });
});

describe("public pages", () => {
  const PUBLIC_PAGES = [
    "/",
    "/home",
    "/blog",
    "/blog/building-an-iot-garden-monitor-in-ojai",
    "/about",
    "/privacy",
    "/any/other/path",
    "/blog/no-such-post",
  ];
  let server: TestServer;
  const pages = new Map<string, PageScripts>();

  beforeAll(async () => {
    server = await startSqliteServer({ SEED_SAMPLE_POSTS: "true" });
    for (const page of PUBLIC_PAGES) {
      const response = await fetch(`${server.url}${page}`);
      pages.set(page, scriptsOf(await response.text()));
    }
  });
  afterAll(() => server?.stop());

  it.each(PUBLIC_PAGES)("%s loads the islands entry and no React Router runtime", (page) => {
    const { always, html } = pages.get(page)!;
    expect(always.some((asset) => /\/hydrate-islands-[\w-]+\.js$/.test(asset))).toBe(true);
    expect(html).not.toContain("__reactRouterContext");
    for (const asset of reachable(always)) {
      expect(read(asset).includes(ROUTER_MARKER), `${asset} is React Router's runtime`).toBe(false);
    }
  });

  it.each(PUBLIC_PAGES)("%s: first-load JavaScript under 100 KB gzip, on phones and on screens that hover", (page) => {
    const { always, hover } = pages.get(page)!;
    const phone = always.reduce((sum, asset) => sum + gzipSize(asset), 0);
    const withTooltips = phone + hover.reduce((sum, asset) => sum + gzipSize(asset), 0);
    expect(hover.length).toBeGreaterThan(0);
    expect(phone).toBeLessThan(FIRST_LOAD_BUDGET_BYTES);
    expect(withTooltips).toBeLessThan(FIRST_LOAD_BUDGET_BYTES);
  });

  it.each(PUBLIC_PAGES)("%s can never load admin code, a markdown library or zod, even on first use", (page) => {
    const { always, hover } = pages.get(page)!;
    for (const asset of reachable([...always, ...hover])) {
      const source = read(asset);
      for (const marker of [...ADMIN_MARKERS, ...MARKDOWN_MARKERS, "jitless"]) {
        expect(source.includes(marker), `${asset} contains "${marker}"`).toBe(false);
      }
    }
  });

  // The footer's sign-up form (ADR 072) rides on every page: its own words, none of the newsletter pages' or server code.
  it.each(PUBLIC_PAGES)("%s carries the sign-up form's words alone, no server code", (page) => {
    const { always, hover } = pages.get(page)!;
    const sources = [...reachable([...always, ...hover])].map(read);
    expect(sources.some((source) => source.includes(subscribeForm.intro))).toBe(true);
    for (const marker of [confirmPage.button, unsubscribePage.doneText, newsletterPage.acceptedText, "kysely"]) {
      expect(
        sources.some((source) => source.includes(marker)),
        `"${marker}" on ${page}`,
      ).toBe(false);
    }
  });

  it("the router's runtime is still in the build, for the admin", () => {
    const manifest = readManifest();
    const adminFiles = [manifest.entry.module, ...manifest.entry.imports];
    expect([...reachable(adminFiles)].some((asset) => read(asset).includes(ROUTER_MARKER))).toBe(true);
  });
});
