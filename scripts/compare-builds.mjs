#!/usr/bin/env node
// npm run bench:compare -- --against ../other-checkout
//
// Uncached renders of this build and another checkout's build (an older
// commit, say: `git worktree add ../old <commit> && cd ../old && npm ci &&
// npm run build`), loaded at the same time, so that both see the same
// machine: on a shared machine, runs a minute apart differ by up to 2x, runs
// side by side by a few percent.
//
// Each build starts on its own new SQLite database (their migrations may
// differ) with PAGE_CACHE_MB=0 and gets the same posts through its admin API.
// Every request carries `Cookie: session=bench`, an unknown session, which
// makes builds older than PAGE_CACHE_MB render on every request too. Per
// round and route: a warm-up, then both loaded at once (autocannon,
// --connections each), and the server CPU time per request of each
// (user + system, from /proc). It prints one line per round and route and the
// medians. With --hits, the same for cached pages: the page cache on (its
// default size) and no cookie, so every measured request is a hit. With
// --browser, every request says what a browser's page load says (Accept:
// text/html and a browser's User-Agent), so the analytics count it as a view
// (ADR 056). A script, not a test.
//
// Options: --against DIR (required)  --posts N (default 20)  --hits
//          --rounds N (default 3)     --duration S (default 6)  --warmup S (default 2)
//          --connections N (default 5)   --browser
//          --accept-encoding "gzip, deflate, br, zstd"   (default: none)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import * as here from "./lib/built-site.mjs";
import { median } from "./lib/median.mjs";
import { seedPosts } from "./lib/posts.mjs";

const { values: opts } = parseArgs({
  options: {
    against: { type: "string" },
    posts: { type: "string", default: "20" },
    rounds: { type: "string", default: "3" },
    duration: { type: "string", default: "6" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "5" },
    "accept-encoding": { type: "string" },
    hits: { type: "boolean", default: false },
    browser: { type: "boolean", default: false },
  },
});
if (!opts.against) {
  console.error("Usage: npm run bench:compare -- --against DIR (a built checkout of another commit)");
  process.exit(2);
}
const otherRoot = path.resolve(opts.against);
const otherLib = path.join(otherRoot, "scripts/lib/built-site.mjs");
if (!fs.existsSync(otherLib) || !fs.existsSync(path.join(otherRoot, "build/server/index.js"))) {
  console.error(`${otherRoot} has no scripts/lib/built-site.mjs or no build: npm ci && npm run build there first.`);
  process.exit(2);
}
here.assertBuilt("npm run bench:compare");
const other = await import(otherLib);

const ADMIN = { email: "bench@example.com", password: "bench-password-123" };
const posts = Number(opts.posts);
const BROWSER = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
};
const headers = {
  ...(opts.browser ? BROWSER : {}),
  ...(opts.hits ? {} : { cookie: "session=bench" }),
  ...(opts["accept-encoding"] ? { "accept-encoding": opts["accept-encoding"] } : {}),
};
const work = fs.mkdtempSync(path.join(os.tmpdir(), "ojai-compare-"));

const sites = [];
try {
  for (const [name, lib] of [
    ["other", other],
    ["this", here],
  ]) {
    const env = {
      DATABASE_URL: `file:${path.join(work, `${name}.sqlite`)}`,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ...(opts.hits ? {} : { PAGE_CACHE_MB: "0" }),
    };
    const site = await lib.startBuiltSite(env);
    sites.push({ name, site });
    const slugs = await seedPosts(site.url, ADMIN, posts);
    sites.at(-1).article = `/blog/${slugs[Math.floor(posts / 2)]}`;
  }
  const routes = ["/", "/blog", "article"];
  const load = (route, duration) =>
    Promise.all(
      sites.map(({ site, article }) =>
        autocannon({
          url: site.url + (route === "article" ? article : route),
          headers,
          connections: Number(opts.connections),
          duration,
        }),
      ),
    );
  const figures = new Map(routes.map((r) => [r, []]));
  console.log(
    `${otherRoot} (other) against ${here.root} (this), ${posts} posts, ${opts.hits ? "cache hits" : "uncached"}, server CPU µs per request`,
  );
  for (let round = 1; round <= Number(opts.rounds); round++) {
    for (const route of routes) {
      await load(route, Number(opts.warmup));
      const before = sites.map(({ site }) => here.cpuSecondsOf(site.pid));
      const results = await load(route, Number(opts.duration));
      const us = sites.map(({ site }, i) =>
        Math.round(((here.cpuSecondsOf(site.pid) - before[i]) * 1e6) / Math.max(1, results[i].requests.total)),
      );
      const failed = results.map((r) => r.non2xx + r.errors);
      if (failed.some(Boolean)) console.log(`  (failed answers: other ${failed[0]}, this ${failed[1]})`);
      figures.get(route).push(us);
      console.log(
        `round ${round}  ${route.padEnd(8)} other ${String(us[0]).padStart(6)}  this ${String(us[1]).padStart(6)}  other/this ${(us[0] / us[1]).toFixed(2)}  req/s ${Math.round(results[0].requests.average)} / ${Math.round(results[1].requests.average)}`,
      );
    }
  }
  console.log("\nmedians (µs per request):");
  for (const [r, rounds] of figures) {
    const ratio = median(rounds.map(([a, b]) => a / b));
    console.log(
      `  ${r.padEnd(8)} other ${median(rounds.map(([a]) => a))}  this ${median(rounds.map(([, b]) => b))}  other/this ${ratio.toFixed(2)}`,
    );
  }
} finally {
  for (const { site } of sites) await site.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
