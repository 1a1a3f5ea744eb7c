#!/usr/bin/env node
// npm run bench:cards: what drawing share cards costs (issue 47, ADR 073),
// printed as one table and JSON.
//
// Per run it starts the built site (npm start's flags, production settings)
// on a new SQLite file, creates --posts published posts through the admin
// API (seedPosts, no header image), then one after another fetches each
// article, reads its og:image and fetches the card: the first fetch waits
// while the card's job draws it in the drawer process. It samples the
// server's resident memory and its children's (the drawer; the markdown
// renderer has stopped by then) every 100 ms and reports the seconds for all cards, the first
// fetch's median and p95, the cards' sizes, the server's peak RSS and the
// children's. A script, not a test: run it a few times and quote medians.
//
// Options: --posts N (default 200)  --runs N (default 1)
//          --json FILE (default .tmp/bench-share-cards-results.json)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { assertBuilt, childrenMemoryOf, memoryOf, root, startBuiltSite } from "./lib/built-site.mjs";
import { median } from "./lib/median.mjs";
import { seedPosts } from "./lib/posts.mjs";

const { values: opts } = parseArgs({
  options: {
    posts: { type: "string", default: "200" },
    runs: { type: "string", default: "1" },
    json: { type: "string", default: path.join(root, ".tmp", "bench-share-cards-results.json") },
  },
});
const posts = Number(opts.posts);
const credentials = { email: "bench@example.com", password: "bench-password-long-enough" };
const MB = 1024 * 1024;

assertBuilt("npm run bench:cards");

const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

async function run() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ojai-bench-cards-"));
  const site = await startBuiltSite({
    DATABASE_URL: path.join(dir, "site.db"),
    ADMIN_EMAIL: credentials.email,
    ADMIN_PASSWORD: credentials.password,
    SEED_SAMPLE_POSTS: "false",
  });
  try {
    const slugs = await seedPosts(site.url, credentials, posts);
    // The markdown renderer stops 5 s after its last post: the children measured are then the drawer alone.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    const before = memoryOf(site.pid);
    let serverPeak = before;
    let childrenPeak = 0;
    const sampler = setInterval(() => {
      serverPeak = Math.max(serverPeak, memoryOf(site.pid));
      childrenPeak = Math.max(childrenPeak, childrenMemoryOf(site.pid));
    }, 100);
    const firstFetch = [];
    const sizes = [];
    const started = performance.now();
    for (const slug of slugs) {
      const html = await (await fetch(`${site.url}/blog/${slug}`)).text();
      const card = /property="og:image" content="[^"]*(\/images\/cards\/[0-9a-f]{32}\.jpg)"/.exec(html)?.[1];
      if (!card) throw new Error(`no card on /blog/${slug}`);
      const t = performance.now();
      const response = await fetch(`${site.url}${card}`);
      const bytes = (await response.arrayBuffer()).byteLength;
      firstFetch.push(performance.now() - t);
      if (response.status !== 200) throw new Error(`${card}: ${response.status}`);
      sizes.push(bytes);
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    return {
      cards: slugs.length,
      seconds,
      firstFetchMedianMs: median(firstFetch),
      firstFetchP95Ms: percentile(firstFetch, 0.95),
      cardKbMedian: median(sizes) / 1024,
      cardKbMax: Math.max(...sizes) / 1024,
      serverRssBeforeMb: before / MB,
      serverPeakMb: serverPeak / MB,
      drawerPeakMb: childrenPeak / MB,
    };
  } finally {
    await site.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const results = [];
for (let i = 0; i < Number(opts.runs); i++) results.push(await run());
const row = (name, key, digits = 0) =>
  `| ${name.padEnd(34)} | ${median(results.map((r) => r[key]))
    .toFixed(digits)
    .padStart(8)} | ${results.map((r) => r[key].toFixed(digits)).join(", ")} |`;
console.log(`${posts} article cards, ${results.length} run(s), SQLite`);
console.log("| figure                             |   median | runs |");
console.log("| ---------------------------------- | -------: | ---- |");
console.log(row("seconds for all cards", "seconds", 1));
console.log(row("first fetch of a card, median ms", "firstFetchMedianMs"));
console.log(row("first fetch of a card, p95 ms", "firstFetchP95Ms"));
console.log(row("card KB, median", "cardKbMedian", 1));
console.log(row("card KB, largest", "cardKbMax", 1));
console.log(row("server RSS before, MB", "serverRssBeforeMb"));
console.log(row("server peak RSS, MB", "serverPeakMb"));
console.log(row("drawer process's peak RSS, MB", "drawerPeakMb"));
fs.mkdirSync(path.dirname(opts.json), { recursive: true });
fs.writeFileSync(opts.json, JSON.stringify({ posts, results }, null, 2));
