#!/usr/bin/env node
// npm run bench: load figures for the public routes, printed as a table and JSON.
//
// For each data set (20 posts of ~1,000 words, then 10,000 posts) it starts the
// built site (node build/server/index.js, production settings, LOG_LEVEL=info)
// on a new SQLite database, adds the posts through the admin API (so they go
// through the same markdown pipeline as an administrator's), then for each
// route runs autocannon: 10 connections, a warm-up, then the measured run.
// It samples the server's resident memory every 100 ms, and reports the CPU
// time the server spent per request (user + system, from /proc): on a shared,
// noisy machine that figure moves far less than req/s. A script, not a test:
// run it a few times and quote medians.
//
// Options: --duration S (default 20)  --warmup S (default 5)
//          --sets 20,10000             --connections N (default 10)
//          --routes /,/blog            --json FILE (default .tmp/bench-results.json)
//          --accept-encoding "gzip, deflate, br, zstd"  (as a browser asks; default: none)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { assertBuilt, cpuSecondsOf, memoryOf, root, startBuiltSite } from "./lib/built-site.mjs";
import { seedPosts } from "./lib/posts.mjs";

const { values: opts } = parseArgs({
  options: {
    duration: { type: "string", default: "20" },
    warmup: { type: "string", default: "5" },
    connections: { type: "string", default: "10" },
    sets: { type: "string", default: "20,10000" },
    routes: { type: "string" },
    json: { type: "string", default: path.join(root, ".tmp", "bench-results.json") },
    "accept-encoding": { type: "string" },
  },
});
const duration = Number(opts.duration);
const warmup = Number(opts.warmup);
const connections = Number(opts.connections);
const sets = opts.sets.split(",").map(Number);
const headers = opts["accept-encoding"] ? { "accept-encoding": opts["accept-encoding"] } : {};
const ADMIN = { email: "bench@example.com", password: "bench-password-123" };

async function startSite(databaseUrl) {
  return startBuiltSite({
    DATABASE_URL: databaseUrl,
    SEED_SAMPLE_POSTS: "false",
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  });
}

async function measure(url, route, pid) {
  const target = url + route;
  await autocannon({ url: target, connections, duration: warmup, headers });
  let peak = memoryOf(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, memoryOf(pid))), 100);
  const cpuBefore = cpuSecondsOf(pid);
  const result = await autocannon({ url: target, connections, duration, headers });
  const cpuSeconds = cpuSecondsOf(pid) - cpuBefore;
  clearInterval(sampler);
  return {
    route,
    reqPerSec: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    peakRssMb: Math.round((peak / 1024 / 1024) * 10) / 10,
    cpuUsPerRequest: Math.round((cpuSeconds * 1e7) / Math.max(1, result.requests.total)) / 10,
  };
}

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
  const site = await startSite(path.join(dir, "site.db"));
  try {
    const seeded = Date.now();
    const slugs = await seedPosts(site.url, ADMIN, count);
    const slug = slugs[Math.floor(slugs.length / 2)];
    console.log(
      `\n${count} posts added in ${((Date.now() - seeded) / 1000).toFixed(1)} s; measuring (${warmup} s warm-up, ${duration} s per route)...`,
    );
    const routes = opts.routes
      ? opts.routes.split(",")
      : ["/", "/blog", `/blog/${slug}`, "/api/posts?limit=5", "/rss.xml"];
    const rows = [];
    for (const route of routes) {
      const row = await measure(site.url, route, site.pid);
      rows.push(row);
      console.log(
        `  ${route.padEnd(34)} ${String(row.reqPerSec).padStart(6)} req/s  p50 ${String(row.p50Ms).padStart(3)} ms  p99 ${String(row.p99Ms).padStart(4)} ms  errors ${row.errors}  peak RSS ${row.peakRssMb} MB  CPU ${row.cpuUsPerRequest} µs/req`,
      );
    }
    results.sets.push({ posts: count, routes: rows });
  } finally {
    await site.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// Summary table, and the ratio of the largest set to the smallest per route.
console.log("\n| posts | route | req/s | p50 ms | p99 ms | errors | peak RSS MB | server CPU µs/req |");
console.log("|---:|---|---:|---:|---:|---:|---:|---:|");
for (const set of results.sets) {
  for (const r of set.routes) {
    const route = r.route.startsWith("/blog/") ? "/blog/{slug}" : r.route;
    console.log(
      `| ${set.posts} | ${route} | ${r.reqPerSec} | ${r.p50Ms} | ${r.p99Ms} | ${r.errors} | ${r.peakRssMb} | ${r.cpuUsPerRequest} |`,
    );
  }
}
if (results.sets.length > 1) {
  const [small, large] = [results.sets[0], results.sets.at(-1)];
  console.log(`\nThroughput with ${large.posts} posts relative to ${small.posts}:`);
  small.routes.forEach((r, i) => {
    const other = large.routes[i];
    const route = r.route.startsWith("/blog/") ? "/blog/{slug}" : r.route;
    console.log(`  ${route.padEnd(20)} ${(other.reqPerSec / r.reqPerSec).toFixed(2)}x`);
  });
}
fs.mkdirSync(path.dirname(opts.json), { recursive: true });
fs.writeFileSync(opts.json, JSON.stringify(results, null, 2));
console.log(`\n${JSON.stringify(results)}`);
console.log(`\nJSON written to ${path.relative(root, opts.json)}`);
