#!/usr/bin/env node
// npm run bench:import: what importing a big WordPress export costs (issue
// 48, ADR 074), printed as one table and JSON.
//
// Per run it writes a WXR file of --posts posts (bulkPost: about 3 KB of
// HTML each, 20 categories, no images), starts the built site (npm start's
// flags, production settings) on a new SQLite file, uploads the file to
// POST /api/admin/import and polls the report until it is done, sampling the
// server's resident memory and its children's (the markdown renderer) every
// 100 ms. Reports the upload's seconds, the import's seconds and posts per
// second, and the peaks. A script, not a test: run it a few times and quote
// medians.
//
// Options: --posts N (default 5000)  --runs N (default 1)
//          --json FILE (default .tmp/bench-import-results.json)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { assertBuilt, childrenMemoryOf, memoryOf, root, startBuiltSite } from "./lib/built-site.mjs";
import { bulkPost, wxrFile } from "./lib/exports.mjs";
import { median } from "./lib/median.mjs";
import { signIn } from "./lib/posts.mjs";

const { values: opts } = parseArgs({
  options: {
    posts: { type: "string", default: "5000" },
    runs: { type: "string", default: "1" },
    json: { type: "string", default: path.join(root, ".tmp", "bench-import-results.json") },
  },
});
const posts = Number(opts.posts);
const credentials = { email: "bench@example.com", password: "bench-password-long-enough" };
const MB = 1024 * 1024;

assertBuilt("npm run bench:import");

async function run(file) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ojai-bench-import-"));
  const site = await startBuiltSite({
    DATABASE_URL: path.join(dir, "site.db"),
    ADMIN_EMAIL: credentials.email,
    ADMIN_PASSWORD: credentials.password,
    SEED_SAMPLE_POSTS: "false",
  });
  try {
    const cookie = await signIn(site.url, credentials);
    const before = memoryOf(site.pid);
    let serverPeak = before;
    let childrenPeak = 0;
    const sampler = setInterval(() => {
      serverPeak = Math.max(serverPeak, memoryOf(site.pid));
      childrenPeak = Math.max(childrenPeak, childrenMemoryOf(site.pid));
    }, 100);
    const form = new FormData();
    form.set("file", new Blob([fs.readFileSync(file)], { type: "text/xml" }), "export.xml");
    const started = performance.now();
    const upload = await fetch(`${site.url}/api/admin/import`, {
      method: "POST",
      headers: { cookie, origin: site.url },
      body: form,
    });
    if (upload.status !== 202) throw new Error(`upload: ${upload.status} ${await upload.text()}`);
    const { id } = await upload.json();
    const uploaded = performance.now();
    let report;
    for (;;) {
      report = await (await fetch(`${site.url}/api/admin/import/${id}`, { headers: { cookie } })).json();
      if (report.status !== "running") break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const done = performance.now();
    clearInterval(sampler);
    if (report.status !== "done" || report.created !== posts) throw new Error(`import: ${JSON.stringify(report)}`);
    return {
      uploadSeconds: (uploaded - started) / 1000,
      importSeconds: (done - uploaded) / 1000,
      postsPerSecond: posts / ((done - uploaded) / 1000),
      redirects: report.redirects,
      serverBeforeMB: before / MB,
      serverPeakMB: serverPeak / MB,
      childrenPeakMB: childrenPeak / MB,
    };
  } finally {
    await site.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const file = path.join(os.tmpdir(), `ojai-bench-import-${posts}.xml`);
fs.writeFileSync(
  file,
  wxrFile(
    "https://old.example.com",
    Array.from({ length: posts }, (_, i) => bulkPost(i + 1)),
  ),
);
const fileMB = fs.statSync(file).size / MB;
const results = [];
for (let i = 0; i < Number(opts.runs); i++) results.push(await run(file));
fs.rmSync(file, { force: true });

const keys = Object.keys(results[0]);
const summary = Object.fromEntries(keys.map((key) => [key, median(results.map((r) => r[key]))]));
console.log(`import of ${posts} posts (${fileMB.toFixed(1)} MB WXR), ${results.length} run(s), medians:`);
console.table(Object.fromEntries(keys.map((key) => [key, Number(summary[key].toFixed(2))])));
fs.mkdirSync(path.dirname(opts.json), { recursive: true });
fs.writeFileSync(opts.json, JSON.stringify({ posts, fileMB, runs: results, medians: summary }, null, 2));
