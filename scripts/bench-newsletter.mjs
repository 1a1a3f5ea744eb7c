#!/usr/bin/env node
// npm run bench:newsletter: how fast the site mails a post to its subscribers
// (issue 46, ADR 072), printed as one table and JSON.
//
// Per run it starts a mail server in this process (smtp-server, as the tests
// do; it counts the mails, their bytes and the copies per address, and keeps
// no mail), starts the built site (node build/server/index.js with npm
// start's flags, production settings, LOG_LEVEL=info) on a new database with
// SMTP_URL, CONTACT_EMAIL and NEWSLETTER_RATE_PER_MINUTE, adds --subscribers
// confirmed subscribers straight into the database, signs in and creates a
// published post of ~1,000 words with `emailSubscribers: true` through the
// admin API. From that request until every subscriber has a mail it samples
// the server's resident memory every 100 ms and its CPU time (user + system,
// from /proc). It reports the seconds from the request to the first and to
// the last mail, mails a second, the server's peak RSS (and VmHWM), the
// server's CPU seconds per 1,000 mails (and this process's, which is mostly
// the mail server's), and the `newsletter.batch` jobs the mailing took. The
// mail server and this process run on the same cores as the site.
//
// A separate script rather than a mode of bench.mjs: it measures one mailing,
// not routes under autocannon, and runs on PostgreSQL too. A script, not a
// test: run it a few times (--runs) and quote medians.
//
// Options: --subscribers N  (default 10000)
//          --rate N         NEWSLETTER_RATE_PER_MINUTE (default 60000, the most it allows)
//          --runs N         (default 1; more print the medians too)
//          --backend sqlite|postgres  (default sqlite: a new file per run; postgres: a new
//                           database per run on TEST_POSTGRES_URL, else 127.0.0.1:5432, else a
//                           private cluster as the tests start one)
//          --cpu-prof DIR   the server writes a V8 CPU profile of each run there (node --cpu-prof)
//          --log-dir DIR    keep the server's log of each run there (run-N.log)
//          --timeout S      give up on a run after S seconds (default 600)
//          --json FILE      (default .tmp/bench-newsletter-results.json)
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { assertBuilt, cpuSecondsOf, memoryOf, root, startBuiltSite } from "./lib/built-site.mjs";
import { median } from "./lib/median.mjs";
import { article, signIn } from "./lib/posts.mjs";
import { postgresForTests } from "./lib/private-postgres.mjs";

const { values: opts } = parseArgs({
  options: {
    subscribers: { type: "string", default: "10000" },
    rate: { type: "string", default: "60000" },
    runs: { type: "string", default: "1" },
    backend: { type: "string", default: "sqlite" },
    timeout: { type: "string", default: "600" },
    "cpu-prof": { type: "string" },
    "log-dir": { type: "string" },
    json: { type: "string", default: path.join(root, ".tmp", "bench-newsletter-results.json") },
  },
});
const subscribers = Number(opts.subscribers);
const rate = Number(opts.rate);
const runs = Number(opts.runs);
const timeoutS = Number(opts.timeout);
for (const [name, value] of Object.entries({ subscribers, rate, runs, timeout: timeoutS })) {
  if (!Number.isInteger(value) || value <= 0) {
    console.error(`--${name} must be a whole number above 0`);
    process.exit(2);
  }
}
if (!["sqlite", "postgres"].includes(opts.backend)) {
  console.error("--backend must be sqlite or postgres");
  process.exit(2);
}
const ADMIN = { email: "bench@example.com", password: "bench-password-123" };
const CONTACT_EMAIL = "hello@ojai.example";
const SEED_CHUNK = 500;

const megabytes = (bytes) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const round = (value, places = 1) => Math.round(value * 10 ** places) / 10 ** places;

/** A mail server on loopback that counts what it receives: mails, bytes, and copies per address. */
async function startMailServer() {
  const copies = new Map();
  const counts = { mails: 0, bytes: 0, firstAt: 0, lastAt: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    size: 10 * 1024 * 1024,
    onData(stream, session, callback) {
      let bytes = 0;
      stream.on("data", (chunk) => (bytes += chunk.length));
      stream.on("end", () => {
        counts.mails++;
        counts.bytes += bytes;
        counts.lastAt = performance.now();
        counts.firstAt ||= counts.lastAt;
        for (const to of session.envelope.rcptTo) copies.set(to.address, (copies.get(to.address) ?? 0) + 1);
        callback();
      });
    },
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.server.address();
  return {
    url: `smtp://127.0.0.1:${port}`,
    counts,
    copies,
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** `count` confirmed subscribers as the integration test adds them (reader-00000@example.com, ...). */
function subscriberRows(count) {
  const now = new Date().toISOString();
  return Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    email: `reader-${String(i).padStart(5, "0")}@example.com`,
    status: "confirmed",
    consent: "import",
    created_at: now,
    confirmed_at: now,
  }));
}
const COLUMNS = ["id", "email", "status", "consent", "created_at", "confirmed_at"];

/** The PostgreSQL server the runs make their databases on (a private cluster is destroyed at the end). */
let postgres;

/** A database of the backend's for one run: its DATABASE_URL, how to add subscribers, read the jobs, and drop it. */
async function newDatabase(run) {
  if (opts.backend === "sqlite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ojai-bench-newsletter-"));
    const file = path.join(dir, "site.db");
    const open = () => {
      const db = new Database(file);
      db.pragma("busy_timeout = 10000");
      return db;
    };
    return {
      url: file,
      async addSubscribers(count) {
        const db = open();
        try {
          const insert = db.prepare(
            `insert into subscribers (${COLUMNS.join(", ")}) values (${COLUMNS.map((c) => `@${c}`).join(", ")})`,
          );
          db.transaction((rows) => rows.forEach((row) => insert.run(row)))(subscriberRows(count));
        } finally {
          db.close();
        }
      },
      async query(text) {
        const db = open();
        try {
          return db.prepare(text).all();
        } finally {
          db.close();
        }
      },
      async drop() {
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  postgres ??= await postgresForTests({
    explicit: process.env.TEST_POSTGRES_URL,
    fallback: "postgres://postgres@127.0.0.1:5432/postgres",
    reapAfter: process.pid,
  });
  const server = postgres;
  const name = `ojai_bench_newsletter_${process.pid}_${run}`;
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const url = new URL(server.url);
  url.pathname = `/${name}`;
  const withClient = async (work) => {
    const client = new pg.Client({ connectionString: url.href });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  return {
    url: url.href,
    addSubscribers: (count) =>
      withClient(async (client) => {
        const rows = subscriberRows(count);
        for (let i = 0; i < rows.length; i += SEED_CHUNK) {
          const chunk = rows.slice(i, i + SEED_CHUNK);
          const values = chunk.map(
            (_, r) => `(${COLUMNS.map((__, c) => `$${r * COLUMNS.length + c + 1}`).join(", ")})`,
          );
          await client.query(
            `insert into subscribers (${COLUMNS.join(", ")}) values ${values.join(", ")}`,
            chunk.flatMap((row) => COLUMNS.map((c) => row[c])),
          );
        }
      }),
    query: (text) => withClient(async (client) => (await client.query(text)).rows),
    async drop() {
      try {
        await admin.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await admin.end();
      }
    },
  };
}

/** One mailing to `subscribers` addresses, measured from the post's creation to the last subscriber's mail. */
async function measureMailing(run) {
  const mail = await startMailServer();
  const database = await newDatabase(run);
  let site;
  try {
    site = await startBuiltSite(
      {
        DATABASE_URL: database.url,
        SEED_SAMPLE_POSTS: "false",
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        SMTP_URL: mail.url,
        CONTACT_EMAIL,
        NEWSLETTER_RATE_PER_MINUTE: String(rate),
      },
      opts["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(opts["cpu-prof"])}`] : [],
    );
    const seeding = performance.now();
    await database.addSubscribers(subscribers);
    const seededS = (performance.now() - seeding) / 1000;
    const cookie = await signIn(site.url, ADMIN);

    let peak = memoryOf(site.pid);
    const sampler = setInterval(() => (peak = Math.max(peak, memoryOf(site.pid))), 100);
    const cpuBefore = cpuSecondsOf(site.pid);
    const ownCpuBefore = process.cpuUsage();
    const started = performance.now();
    try {
      const created = await fetch(`${site.url}/api/admin/posts`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Cookie: cookie },
        body: JSON.stringify({
          title: "Moving a small office to the cloud",
          slug: `newsletter-bench-${run}`,
          excerpt: "What we learned moving a ten-person office off its server closet, in brief.",
          content: article(run),
          category: "Cloud",
          readTime: "5 min read",
          published: true,
          publishDate: new Date(Date.now() - 60_000).toISOString(),
          headerImage: null,
          emailSubscribers: true,
        }),
      });
      if (created.status !== 201) throw new Error(`creating the post: ${created.status} ${await created.text()}`);
      const deadline = started + timeoutS * 1000;
      while (mail.copies.size < subscribers) {
        if (performance.now() > deadline)
          throw new Error(`${mail.copies.size} of ${subscribers} subscribers had a mail after ${timeoutS} s`);
        if (site.pid && !fs.existsSync(`/proc/${site.pid}`)) throw new Error(`the site exited; see ${site.logFile}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      clearInterval(sampler);
    }
    const totalS = (mail.counts.lastAt - started) / 1000;
    const cpuSeconds = cpuSecondsOf(site.pid) - cpuBefore;
    const ownCpu = process.cpuUsage(ownCpuBefore);
    const highWater = memoryOf(site.pid, "VmHWM");

    // The mailing's own record, once its last batch has marked it done.
    let mailing;
    for (let i = 0; i < 100; i++) {
      [mailing] = await database.query("select status, recipients, sent, failed from newsletter_mailings");
      if (mailing?.status === "done") break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const jobs = await database.query(
      "select status, count(*) as jobs, sum(attempts) as attempts from jobs where kind = 'newsletter.batch' group by status",
    );
    const twice = [...mail.copies.values()].filter((n) => n > 1).length;
    return {
      run,
      backend: opts.backend,
      subscribers,
      rate,
      seededS: round(seededS),
      firstMailS: round((mail.counts.firstAt - started) / 1000, 2),
      totalS: round(totalS),
      mailsPerSecond: Math.round(subscribers / totalS),
      mails: mail.counts.mails,
      twice,
      kbPerMail: round(mail.counts.bytes / mail.counts.mails / 1024),
      peakRssMb: megabytes(peak),
      highWaterMb: megabytes(highWater),
      cpuSecondsPer1000: round((cpuSeconds * 1000) / subscribers, 2),
      benchCpuSecondsPer1000: round(((ownCpu.user + ownCpu.system) / 1e6 / subscribers) * 1000, 2),
      batchJobs: jobs.reduce((sum, row) => sum + Number(row.jobs), 0),
      batchAttempts: jobs.reduce((sum, row) => sum + Number(row.attempts), 0),
      jobsNotDone: jobs.filter((row) => row.status !== "done").reduce((sum, row) => sum + Number(row.jobs), 0),
      mailing: mailing ? { ...mailing, recipients: Number(mailing.recipients), sent: Number(mailing.sent) } : null,
    };
  } finally {
    if (site && opts["log-dir"]) {
      fs.mkdirSync(opts["log-dir"], { recursive: true });
      fs.copyFileSync(site.logFile, path.join(opts["log-dir"], `run-${run}.log`));
    }
    await site?.stop();
    await mail.stop();
    await database.drop();
  }
}

assertBuilt("npm run bench:newsletter");

const results = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  loadAverage: os.loadavg().map((l) => round(l, 2)),
  backend: opts.backend,
  subscribers,
  rate,
  runs: [],
};
console.log(
  `newsletter: ${subscribers} subscribers, NEWSLETTER_RATE_PER_MINUTE=${rate}, ${opts.backend}, ${runs} run(s)...`,
);
for (let run = 1; run <= runs; run++) {
  const row = await measureMailing(run);
  results.runs.push(row);
  console.log(
    `  run ${run}: ${row.totalS} s (first mail after ${row.firstMailS} s), ${row.mailsPerSecond} mails/s, ` +
      `peak RSS ${row.peakRssMb} MB, CPU ${row.cpuSecondsPer1000} s per 1,000 mails (bench ${row.benchCpuSecondsPer1000}), ` +
      `${row.batchJobs} batch jobs (${row.batchAttempts} attempts), ${row.twice} addresses with two copies; ` +
      `mailing ${row.mailing?.status} ${row.mailing?.sent}/${row.mailing?.recipients}`,
  );
}

const FIELDS = [
  ["totalS", "seconds"],
  ["firstMailS", "first mail s"],
  ["mailsPerSecond", "mails/s"],
  ["peakRssMb", "peak RSS MB"],
  ["highWaterMb", "VmHWM MB"],
  ["cpuSecondsPer1000", "server CPU s / 1,000 mails"],
  ["benchCpuSecondsPer1000", "bench CPU s / 1,000 mails"],
  ["kbPerMail", "KB / mail"],
  ["batchJobs", "batch jobs"],
  ["twice", "two copies"],
];
console.log(`\n| run | ${FIELDS.map(([, label]) => label).join(" | ")} |`);
console.log(`|---|${FIELDS.map(() => "---:").join("|")}|`);
for (const row of results.runs) console.log(`| ${row.run} | ${FIELDS.map(([key]) => row[key]).join(" | ")} |`);
if (results.runs.length > 1) {
  results.median = Object.fromEntries(FIELDS.map(([key]) => [key, median(results.runs.map((row) => row[key]))]));
  console.log(`| median | ${FIELDS.map(([key]) => results.median[key]).join(" | ")} |`);
}
postgres?.cluster?.destroy();
fs.mkdirSync(path.dirname(opts.json), { recursive: true });
fs.writeFileSync(opts.json, JSON.stringify(results, null, 2));
console.log(`\n${JSON.stringify(results)}`);
console.log(`\nJSON written to ${path.relative(root, opts.json)}`);
