#!/usr/bin/env node
// npm run bench: load figures for the public routes, printed as one table and JSON.
//
// For each data set (default 20 and 10,000 posts of ~1,000 words) it starts the
// built site (node build/server/index.js with npm start's flags, production
// settings, LOG_LEVEL=info) on a new SQLite database and adds the posts through
// the admin API (so they go through the same markdown pipeline as an
// administrator's); past --api-posts, the rest are copies made inside the
// database (scripts/lib/copy-posts.mjs). Then, per mode:
//
//   hits   each route from the page cache: autocannon, 10 connections, a
//          warm-up, then the measured run
//   miss   the same pages rendered on every request: a second site on the same
//          database started with PAGE_CACHE_MB=0 (no page cache at all)
//   crawl  every article once, in random order, 10 at a time, as a browser
//          asks (Accept-Encoding: gzip, deflate, br, zstd), on a cache made
//          cold by a content change first
//   mixed  for --duration: 95% hits (the hot routes), 4% misses (random
//          articles), 1% writes (an administrator's update of a random post,
//          which ends every cached page); reads ask as a browser's page load
//          does (Accept: text/html, a browser's User-Agent), each from another
//          visitor's address, so the analytics count every one (ADR 056)
//   search the blog search (/blog/search, ADR 042) on the server without the
//          page cache, so every request runs the full-text query: the
//          commonest word (in every post), a prefix of it, four common
//          words, a title's words; then one of them from the page cache.
//          Each request names another visitor in X-Forwarded-For (the server
//          trusts loopback), as many visitors would: one address alone would
//          meet the per-address search limit (ADR 048) within a second.
//   admin  the signed-in admin's paged post list (GET /api/admin/posts): the
//          first page, a page in the middle, a title filter, and the /admin
//          page that renders the first page
//   redirects  a stored redirect's 301 (answered before the page cache from
//          the in-memory map, ADR 054) and an unknown path's 404 (the landing
//          page from the cache), to set beside the hits: a redirect costs no
//          more than a hit
//
// It samples each server's resident memory every 100 ms (peak RSS; the
// markdown renderer, a child process of the server, is counted apart), and
// reports the CPU time the server spent per request (user + system, from
// /proc): on a shared, noisy machine that figure moves far less than req/s.
// The load generators run on the same cores. A script, not a test: run it a
// few times and quote medians.
//
// Options: --duration S (default 20)  --warmup S (default 5)
//          --sets 20,10000            --connections N (default 10)
//          --modes hits,miss,crawl,mixed,search,admin,redirects (default: all)
//          --routes /,/blog           (hits and miss; default: /, /blog, an article, a category, /api/posts?limit=5, /rss.xml)
//          --api-posts N              (default 10000: more are copied in the database)
//          --json FILE                (default .tmp/bench-results.json)
//          --accept-encoding "gzip, deflate, br, zstd"  (hits and miss as a browser asks; default: none)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { assertBuilt, childrenMemoryOf, cpuSecondsOf, memoryOf, root, startBuiltSite } from "./lib/built-site.mjs";
import { copyPosts } from "./lib/copy-posts.mjs";
import { seedPosts, signIn } from "./lib/posts.mjs";

const { values: opts } = parseArgs({
  options: {
    duration: { type: "string", default: "20" },
    warmup: { type: "string", default: "5" },
    connections: { type: "string", default: "10" },
    sets: { type: "string", default: "20,10000" },
    modes: { type: "string", default: "hits,miss,crawl,mixed,search,admin,redirects" },
    routes: { type: "string" },
    "api-posts": { type: "string", default: "10000" },
    json: { type: "string", default: path.join(root, ".tmp", "bench-results.json") },
    "accept-encoding": { type: "string" },
  },
});
const duration = Number(opts.duration);
const warmup = Number(opts.warmup);
const connections = Number(opts.connections);
const sets = opts.sets.split(",").map(Number);
const modes = new Set(opts.modes.split(","));
const apiPosts = Number(opts["api-posts"]);
const headers = opts["accept-encoding"] ? { "accept-encoding": opts["accept-encoding"] } : {};
const BROWSER_ENCODING = { "accept-encoding": "gzip, deflate, br, zstd" };
/** What a browser's page load sends besides: the analytics count such a request as a view (ADR 056). */
const BROWSER_PAGE_LOAD = {
  ...BROWSER_ENCODING,
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
};
const ADMIN = { email: "bench@example.com", password: "bench-password-123" };
const CATEGORY_ROUTE = "/blog/category/web-design";
const MISS_ROUTES = (slug) => ["/", "/blog", `/blog/${slug}`, CATEGORY_ROUTE];
const SEARCH_ROUTES = [
  "/blog/search?q=cloud",
  "/blog/search?q=clo",
  "/blog/search?q=cloud+migration+security+phones",
  "/blog/search?q=bench+post+4242",
];

function startSite(databaseUrl, env = {}) {
  return startBuiltSite({
    DATABASE_URL: databaseUrl,
    SEED_SAMPLE_POSTS: "false",
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    ...env,
  });
}

const megabytes = (bytes) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** Peak RSS (the server's, and its renderer's apart) and CPU time of `pid` while `run` runs. */
async function watched(pid, run) {
  let peak = memoryOf(pid);
  let rendererPeak = childrenMemoryOf(pid);
  const sampler = setInterval(() => {
    peak = Math.max(peak, memoryOf(pid));
    rendererPeak = Math.max(rendererPeak, childrenMemoryOf(pid));
  }, 100);
  const cpuBefore = cpuSecondsOf(pid);
  try {
    const result = await run();
    return {
      result,
      peakRssMb: megabytes(peak),
      rendererPeakMb: megabytes(rendererPeak),
      cpuSeconds: cpuSecondsOf(pid) - cpuBefore,
    };
  } finally {
    clearInterval(sampler);
  }
}

const cpuPerRequest = (cpuSeconds, requests) => Math.round((cpuSeconds * 1e7) / Math.max(1, requests)) / 10;

/** A new visitor's address for each request, from the benchmarking range (198.18.0.0/15), as X-Forwarded-For. */
let visitor = 0;
const asAnotherVisitor = (request) => {
  visitor = (visitor + 1) % 65536;
  return { ...request, headers: { ...request.headers, "x-forwarded-for": `198.18.${visitor >> 8}.${visitor & 255}` } };
};

/**
 * autocannon on one route: a warm-up, then the measured run; `manyVisitors`
 * gives each request another address; an answer of another class than
 * `expected` (2xx, or 3xx for a redirect, 4xx for a 404) is an error.
 */
async function measureRoute(mode, url, route, pid, extraHeaders = {}, { manyVisitors = false, expected = "2xx" } = {}) {
  const requestHeaders = { ...headers, ...extraHeaders };
  const requests = manyVisitors ? [{ setupRequest: asAnotherVisitor }] : undefined;
  await autocannon({ url: url + route, connections, duration: warmup, headers: requestHeaders, requests });
  const { result, peakRssMb, rendererPeakMb, cpuSeconds } = await watched(pid, () =>
    autocannon({ url: url + route, connections, duration, headers: requestHeaders, requests }),
  );
  return {
    mode,
    route,
    reqPerSec: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts + result.requests.total - result[expected],
    peakRssMb,
    rendererPeakMb,
    cpuUsPerRequest: cpuPerRequest(cpuSeconds, result.requests.total),
  };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

/**
 * Runs `next()`'s requests `connections` at a time until it answers undefined;
 * each request is [kind, () => Promise<Response>]. Answers per kind the
 * latencies (ms) and the errors (a failed request or a status of 400 or more).
 */
async function drive(next) {
  const kinds = new Map();
  const kind = (name) => {
    if (!kinds.has(name)) kinds.set(name, { latencies: [], errors: 0 });
    return kinds.get(name);
  };
  const worker = async () => {
    for (let request = next(); request; request = next()) {
      const [name, send] = request;
      const started = performance.now();
      try {
        const response = await send();
        await response.arrayBuffer();
        if (response.status >= 400) kind(name).errors++;
      } catch {
        kind(name).errors++;
      }
      kind(name).latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return kinds;
}

function rowsOf(mode, kinds, seconds, { peakRssMb, rendererPeakMb, cpuSeconds }) {
  const total = [...kinds.values()].reduce((sum, k) => sum + k.latencies.length, 0);
  const row = (route, k) => {
    const sorted = [...k.latencies].sort((a, b) => a - b);
    return {
      mode,
      route,
      reqPerSec: Math.round(sorted.length / seconds),
      p50Ms: Math.round(percentile(sorted, 50) * 10) / 10,
      p99Ms: Math.round(percentile(sorted, 99) * 10) / 10,
      errors: k.errors,
      peakRssMb,
      rendererPeakMb,
      cpuUsPerRequest: cpuPerRequest(cpuSeconds, total),
    };
  };
  const all = { latencies: [...kinds.values()].flatMap((k) => k.latencies), errors: 0 };
  for (const k of kinds.values()) all.errors += k.errors;
  return [row("(all)", all), ...[...kinds].map(([name, k]) => row(name, k))];
}

/** Every article once, in random order, on a cold cache. */
async function crawl(site, cookie, slugs) {
  await bumpContent(site.url, cookie, slugs[0]);
  const order = [...slugs];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  let i = 0;
  const started = performance.now();
  const watch = await watched(site.pid, () =>
    drive(() =>
      i < order.length
        ? ["article", () => fetch(`${site.url}/blog/${order[i++]}`, { headers: BROWSER_ENCODING })]
        : undefined,
    ),
  );
  return rowsOf("crawl", watch.result, (performance.now() - started) / 1000, watch).slice(1);
}

/** An administrator's update of post `slug` (same text): every cached page is stale after it. */
async function bumpContent(url, cookie, slug) {
  const response = await updatePost(url, cookie, await postOf(url, slug));
  if (!response.ok) throw new Error(`updating ${slug}: ${response.status}`);
}

/** A post as the public API answers it, for updatePost. */
async function postOf(url, slug) {
  const response = await fetch(`${url}/api/posts/${slug}`);
  if (!response.ok) throw new Error(`reading ${slug}: ${response.status}`);
  return response.json();
}

/** Saves `post` again as it is, as the admin's editor does (the markdown is rendered again). */
function updatePost(url, cookie, post) {
  const { title, slug, excerpt, content, category, readTime, published, publishDate, headerImage } = post;
  return fetch(`${url}/api/admin/posts/${post.id}`, {
    method: "PUT",
    headers: { "Content-Type": "application/json", Cookie: cookie },
    body: JSON.stringify({ title, slug, excerpt, content, category, readTime, published, publishDate, headerImage }),
  });
}

/** 95% hits, 4% misses, 1% writes for `duration` seconds. */
async function mixed(site, cookie, slugs, hotRoutes) {
  const pick = (list) => list[Math.floor(Math.random() * list.length)];
  // The writes go to 20 posts read beforehand.
  const written = await Promise.all(Array.from({ length: 20 }, () => postOf(site.url, pick(slugs))));
  const end = performance.now() + duration * 1000;
  const started = performance.now();
  const watch = await watched(site.pid, () =>
    drive(() => {
      if (performance.now() >= end) return undefined;
      const roll = Math.random() * 100;
      if (roll < 1) {
        const post = pick(written);
        return ["write", () => updatePost(site.url, cookie, post)];
      }
      const route = roll < 5 ? `/blog/${pick(slugs)}` : pick(hotRoutes);
      const headers = asAnotherVisitor({ headers: BROWSER_PAGE_LOAD }).headers;
      return [roll < 5 ? "miss" : "hit", () => fetch(site.url + route, { headers })];
    }),
  );
  return rowsOf("mixed", watch.result, (performance.now() - started) / 1000, watch);
}

function printRow(set, row) {
  console.log(
    `  ${row.mode.padEnd(5)} ${shortRoute(row.route).padEnd(20)} ${String(row.reqPerSec).padStart(6)} req/s  p50 ${String(row.p50Ms).padStart(5)} ms  p99 ${String(row.p99Ms).padStart(6)} ms  errors ${row.errors}  peak RSS ${row.peakRssMb} MB (renderer ${row.rendererPeakMb})  CPU ${row.cpuUsPerRequest} µs/req`,
  );
}
const shortRoute = (route) =>
  route.startsWith("/blog/search")
    ? route
    : route.startsWith("/blog/category/")
      ? "/blog/category/{slug}"
      : route.startsWith("/blog/")
        ? "/blog/{slug}"
        : route;

const results = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  duration,
  warmup,
  connections,
  acceptEncoding: opts["accept-encoding"] ?? null,
  sets: [],
};

assertBuilt("npm run bench");

for (const count of sets) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ojai-bench-"));
  const databaseFile = path.join(dir, "site.db");
  const site = await startSite(databaseFile);
  try {
    const seeded = Date.now();
    const slugs = await seedPosts(site.url, ADMIN, Math.min(count, apiPosts));
    if (count > apiPosts) {
      slugs.push(...copyPosts(databaseFile, apiPosts, count));
      // copyPosts holds the event loop for a while (half a minute for 90,000
      // posts), during which the server closes the idle keep-alive
      // connections; let fetch see that before the next request reuses one.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const slug = slugs[Math.floor(slugs.length / 2)];
    console.log(
      `\n${count} posts added in ${((Date.now() - seeded) / 1000).toFixed(1)} s (${Math.min(count, apiPosts)} through the admin API); ${warmup} s warm-up, ${duration} s per route...`,
    );
    const routes = opts.routes
      ? opts.routes.split(",")
      : ["/", "/blog", `/blog/${slug}`, CATEGORY_ROUTE, "/api/posts?limit=5", "/rss.xml"];
    const rows = [];
    const record = (row) => {
      rows.push(row);
      printRow(count, row);
    };
    if (modes.has("hits")) for (const route of routes) record(await measureRoute("hits", site.url, route, site.pid));
    if (modes.has("miss")) {
      const uncached = await startSite(databaseFile, { PAGE_CACHE_MB: "0" });
      try {
        for (const route of opts.routes ? routes : MISS_ROUTES(slug)) {
          record(await measureRoute("miss", uncached.url, route, uncached.pid));
        }
      } finally {
        await uncached.stop();
      }
    }
    if (modes.has("search")) {
      const uncached = await startSite(databaseFile, { PAGE_CACHE_MB: "0", TRUST_PROXY: "loopback" });
      try {
        for (const route of SEARCH_ROUTES) {
          record(await measureRoute("search", uncached.url, route, uncached.pid, {}, { manyVisitors: true }));
        }
      } finally {
        await uncached.stop();
      }
      record(await measureRoute("hits", site.url, SEARCH_ROUTES[0], site.pid));
    }
    const cookie = await signIn(site.url, ADMIN);
    if (modes.has("crawl")) for (const row of await crawl(site, cookie, slugs)) record(row);
    if (modes.has("mixed")) for (const row of await mixed(site, cookie, slugs, routes)) record(row);
    if (modes.has("admin")) {
      const middle = Math.floor(count / 2);
      for (const route of [
        "/api/admin/posts?limit=50",
        `/api/admin/posts?limit=50&offset=${middle}`,
        "/api/admin/posts?limit=50&q=post%2042",
        "/admin",
      ]) {
        record(await measureRoute("admin", site.url, route, site.pid, { cookie }));
      }
    }
    if (modes.has("redirects")) {
      const made = await fetch(`${site.url}/api/admin/redirects`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify({ from: "/bench-old-address", to: `/blog/${slug}` }),
      });
      if (made.status !== 201) throw new Error(`the bench redirect was refused: ${made.status}`);
      record(await measureRoute("redirects", site.url, "/bench-old-address", site.pid, {}, { expected: "3xx" }));
      record(await measureRoute("redirects", site.url, "/bench-no-such-page", site.pid, {}, { expected: "4xx" }));
    }
    results.sets.push({ posts: count, rows });
  } finally {
    await site.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// One table, and per mode and route the ratio of the largest set to the smallest.
console.log(
  "\n| posts | mode | route | req/s | p50 ms | p99 ms | errors | peak RSS MB | renderer peak RSS MB | server CPU µs/req |",
);
console.log("|---:|---|---|---:|---:|---:|---:|---:|---:|---:|");
for (const set of results.sets) {
  for (const r of set.rows) {
    console.log(
      `| ${set.posts} | ${r.mode} | ${shortRoute(r.route)} | ${r.reqPerSec} | ${r.p50Ms} | ${r.p99Ms} | ${r.errors} | ${r.peakRssMb} | ${r.rendererPeakMb} | ${r.cpuUsPerRequest} |`,
    );
  }
}
if (results.sets.length > 1) {
  const [small, large] = [results.sets[0], results.sets.at(-1)];
  console.log(`\nThroughput with ${large.posts} posts relative to ${small.posts}:`);
  for (const r of small.rows) {
    const other = large.rows.find((o) => o.mode === r.mode && shortRoute(o.route) === shortRoute(r.route));
    if (other)
      console.log(
        `  ${r.mode.padEnd(5)} ${shortRoute(r.route).padEnd(20)} ${(other.reqPerSec / r.reqPerSec).toFixed(2)}x`,
      );
  }
}
fs.mkdirSync(path.dirname(opts.json), { recursive: true });
fs.writeFileSync(opts.json, JSON.stringify(results, null, 2));
console.log(`\n${JSON.stringify(results)}`);
console.log(`\nJSON written to ${path.relative(root, opts.json)}`);
