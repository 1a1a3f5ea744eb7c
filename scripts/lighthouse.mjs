#!/usr/bin/env node
// npm run lighthouse: Lighthouse 12 (mobile, default throttling) on every
// public page of the built site, and the first-load JavaScript of each page
// (gzip bytes of every script the page loads before it is idle), on a touch
// phone and on a desktop with a mouse (which also loads the tooltips).
//
// It starts the built site on a new SQLite database with the sample posts,
// drives Debian's Chromium (/usr/bin/chromium, or CHROMIUM_PATH), prints a
// table and writes .tmp/lighthouse-results.json. A script, not a test.
//
// Beside the sample posts it writes, through the admin API, an article with
// three uploaded images in its body (issue 33: no layout shift while they
// load), and audits it as "/blog/{slug} (3 body images)".
//
// Options: --pages /,/blog,/blog/category/web-design   --runs N (default 1; the median per category is reported)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import zlib from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromium } from "@playwright/test";
import sharp from "sharp";
import { assertBuilt, root, startBuiltSite } from "./lib/built-site.mjs";
import { median } from "./lib/median.mjs";
import { FULL_CHROMIUM } from "./lib/test-browser.mjs";

const { values: opts } = parseArgs({
  options: {
    pages: { type: "string" },
    runs: { type: "string", default: "1" },
    json: { type: "string", default: path.join(root, ".tmp", "lighthouse-results.json") },
  },
});
const chromePath = process.env.CHROMIUM_PATH ?? FULL_CHROMIUM;
const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const ADMIN = { email: "lighthouse@example.com", password: "lighthouse-admin-password" };

async function startSite() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ojai-lh-"));
  const site = await startBuiltSite({
    DATABASE_URL: path.join(dir, "site.db"),
    SEED_SAMPLE_POSTS: "true",
    LOG_LEVEL: "warn",
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  });
  return {
    url: site.url,
    async stop() {
      await site.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A photo-like JPEG (a gradient and a shape, so it weighs what a photo does), 1600 x 1000. */
function photo(hue) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1000">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue},60%,45%)"/><stop offset="1" stop-color="hsl(${hue + 60},70%,70%)"/>
    </linearGradient></defs>
    <rect width="1600" height="1000" fill="url(#g)"/>
    <circle cx="${500 + hue}" cy="480" r="280" fill="hsl(${hue + 180},50%,60%)"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/**
 * Writes a published article with three uploaded images in its body (alt
 * text, one caption) through the admin API, as the editor would; answers its path.
 */
async function articleWithBodyImages(url) {
  const login = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  if (!login.ok) throw new Error(`admin sign-in failed: ${login.status}`);
  const cookie = login.headers.get("set-cookie").split(";")[0];
  const uploads = [];
  for (const hue of [20, 140, 260]) {
    const form = new FormData();
    form.append("image", new Blob([await photo(hue)], { type: "image/jpeg" }), `photo-${hue}.jpg`);
    const response = await fetch(`${url}/api/admin/upload`, {
      method: "POST",
      body: form,
      headers: { Cookie: cookie },
    });
    if (response.status !== 201) throw new Error(`upload failed: ${response.status} ${await response.text()}`);
    uploads.push((await response.json()).url);
  }
  const paragraph =
    "Cloud costs grow quietly: an instance left running, a snapshot nobody remembers, a bucket that logs every request. " +
    "A monthly review with the people who own each service keeps them in view and makes the savings somebody's job.";
  const content = [
    paragraph,
    `![A dashboard of monthly cloud costs by service](${uploads[0]} "Costs by service, last quarter")`,
    `${paragraph}\n\n${paragraph}`,
    `![The same costs after the review](${uploads[1]})`,
    `${paragraph}\n\n${paragraph}`,
    `![A team at a whiteboard planning the next review](${uploads[2]})`,
    paragraph,
  ].join("\n\n");
  const response = await fetch(`${url}/api/admin/posts`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: cookie },
    body: JSON.stringify({
      title: "Three pictures of a cloud bill",
      slug: "three-pictures-of-a-cloud-bill",
      excerpt: "A post with three uploaded images in its body, for Lighthouse.",
      content,
      category: "Cloud",
      readTime: "2 min read",
      published: true,
      publishDate: new Date(Date.now() - 60_000).toISOString(),
    }),
  });
  if (response.status !== 201) throw new Error(`post failed: ${response.status} ${await response.text()}`);
  return `/blog/${(await response.json()).slug}`;
}

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1280, height: 800 } };

/** Gzip bytes of every script a page loads until the network is idle, on this kind of screen. */
async function firstLoadJs(browser, url, screen) {
  const context = await browser.newContext(screen);
  const page = await context.newPage();
  const scripts = new Map();
  page.on("response", async (response) => {
    if (response.request().resourceType() !== "script") return;
    try {
      scripts.set(response.url(), zlib.gzipSync(await response.body(), { level: 9 }).length);
    } catch {
      // its body is gone (a redirect, or the page moved on): not counted
    }
  });
  await page.goto(url, { waitUntil: "networkidle" });
  await context.close();
  let total = 0;
  for (const size of scripts.values()) total += size;
  return { bytes: total, files: scripts.size };
}

/**
 * One Lighthouse run. Chromium sometimes loses a trace on this machine
 * ("NO_NAVSTART: ... Please run Lighthouse again"), more often when it is
 * busy: such a run is tried again, up to twice, so one lost trace does not
 * lose every page's figures.
 */
async function audit(url, port, pagePath, tries = 3) {
  for (let attempt = 1; ; attempt++) {
    const { lhr } = await lighthouse(url, { port, output: "json", logLevel: "error" });
    if (!lhr.runtimeError) return lhr;
    if (attempt >= tries) throw new Error(`${pagePath}: ${lhr.runtimeError.message}`);
    console.warn(`${pagePath}: ${lhr.runtimeError.code}, running Lighthouse again`);
  }
}

assertBuilt("npm run lighthouse");

const site = await startSite();
let withImagesPath;
const results = {
  date: new Date().toISOString(),
  lighthouse: "12",
  formFactor: "mobile",
  throttling: "default (simulated)",
  pages: [],
};
try {
  const withImages = await articleWithBodyImages(site.url);
  withImagesPath = withImages;
  const posts = (await (await fetch(`${site.url}/api/posts?limit=5`)).json()).filter(
    (post) => `/blog/${post.slug}` !== withImages,
  );
  const pages = opts.pages
    ? opts.pages.split(",")
    : [
        "/",
        "/blog",
        posts[0] ? `/blog/${posts[0].slug}` : null,
        // The newest post's category page (the slug rule, ADR 041).
        posts[0]?.category
          ? `/blog/category/${posts[0].category
              .toLowerCase()
              .replace(/[^a-z0-9]+/g, "-")
              .replace(/^-|-$/g, "")}`
          : null,
        "/about",
        "/privacy",
        "/blog/search?q=cloud+governance",
        withImages,
      ].filter(Boolean);

  const browser = await chromium.launch({ executablePath: chromePath, args: CHROME_FLAGS.slice(1) });
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS });
  try {
    for (const pagePath of pages) {
      const url = site.url + pagePath;
      const runs = [];
      for (let i = 0; i < Number(opts.runs); i++) {
        const lhr = await audit(url, chrome.port, pagePath);
        const failing = Object.values(lhr.audits)
          .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === "binary")
          .map((a) => a.id);
        runs.push({
          performance: Math.round(lhr.categories.performance.score * 100),
          accessibility: Math.round(lhr.categories.accessibility.score * 100),
          bestPractices: Math.round(lhr.categories["best-practices"].score * 100),
          seo: Math.round(lhr.categories.seo.score * 100),
          lcpMs: Math.round(lhr.audits["largest-contentful-paint"].numericValue),
          tbtMs: Math.round(lhr.audits["total-blocking-time"].numericValue),
          cls: Number(lhr.audits["cumulative-layout-shift"].numericValue.toFixed(3)),
          failing,
        });
      }
      const pick = (key) => median(runs.map((r) => r[key]));
      const js = await firstLoadJs(browser, url, PHONE);
      const desktopJs = await firstLoadJs(browser, url, DESKTOP);
      const row = {
        page: pagePath,
        performance: pick("performance"),
        accessibility: pick("accessibility"),
        bestPractices: pick("bestPractices"),
        seo: pick("seo"),
        lcpMs: pick("lcpMs"),
        tbtMs: pick("tbtMs"),
        cls: pick("cls"),
        firstLoadJsGzipKb: Math.round((js.bytes / 1024) * 10) / 10,
        scripts: js.files,
        firstLoadJsDesktopGzipKb: Math.round((desktopJs.bytes / 1024) * 10) / 10,
        desktopScripts: desktopJs.files,
        failingAudits: [...new Set(runs.flatMap((r) => r.failing))],
        runs: runs.length,
      };
      results.pages.push(row);
      console.log(
        `${pagePath.padEnd(40)} perf ${row.performance}  a11y ${row.accessibility}  bp ${row.bestPractices}  seo ${row.seo}  LCP ${row.lcpMs} ms  TBT ${row.tbtMs} ms  CLS ${row.cls}  JS ${row.firstLoadJsGzipKb} KB gzip (desktop ${row.firstLoadJsDesktopGzipKb})` +
          (row.failingAudits.length ? `  failing: ${row.failingAudits.join(", ")}` : ""),
      );
    }
  } finally {
    await browser.close();
    chrome.kill();
  }
} finally {
  await site.stop();
}

console.log(
  "\n| page | Performance | Accessibility | Best Practices | SEO | LCP ms | TBT ms | CLS | first-load JS phone / desktop (KB gzip) |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const r of results.pages) {
  const page =
    r.page === withImagesPath
      ? "/blog/{slug} (3 body images)"
      : r.page.startsWith("/blog/category/")
        ? "/blog/category/{slug}"
        : r.page.startsWith("/blog/") && !r.page.startsWith("/blog/search")
          ? "/blog/{slug}"
          : r.page;
  console.log(
    `| ${page} | ${r.performance} | ${r.accessibility} | ${r.bestPractices} | ${r.seo} | ${r.lcpMs} | ${r.tbtMs} | ${r.cls} | ${r.firstLoadJsGzipKb} / ${r.firstLoadJsDesktopGzipKb} |`,
  );
}
fs.mkdirSync(path.dirname(opts.json), { recursive: true });
fs.writeFileSync(opts.json, JSON.stringify(results, null, 2));
console.log(`\nJSON written to ${path.relative(root, opts.json)}`);
