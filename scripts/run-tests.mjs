#!/usr/bin/env node
// The whole suite (docs/testing.md): lint, then Vitest (unit, API and
// integration tests) and Playwright (end to end in Chromium), each once, with
// every test that reaches a database run on each backend. Ends with the ten
// slowest tests and one line: "N passed, N failed".
//
// TEST_BACKENDS=sqlite,postgres (the default) chooses the backends. Vitest
// and Playwright find PostgreSQL themselves, in their global setup
// (tests/support/postgres-setup.ts): TEST_POSTGRES_URL, else the default
// server, else a private one for the phase (ADR 049).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { FULL_CHROMIUM, testBrowser } from "./lib/test-browser.mjs";

const root = path.resolve(import.meta.dirname, "..");
const out = path.join(root, ".tmp");
fs.mkdirSync(out, { recursive: true });
const started = Date.now();

const bin = (name) => path.join(root, "node_modules", ".bin", name);
const children = new Set();
let stopping = false;
/** Every process group the run started, kept after its leader exits: its other members may live on. */
const groups = new Set();
/**
 * Runs a command to its end; answers its exit code. Each command is the
 * leader of a process group of its own, so that an interrupted run ends it
 * and everything it started (test servers, browsers) together. Given
 * `besideTests` (an array), it runs at a lower priority, so the tests beside
 * it keep the cores they need and it takes what they leave, and what it
 * prints goes into that array instead of between their lines.
 */
const run = (command, args, env = {}, besideTests = undefined) =>
  new Promise((resolve) => {
    // An interrupted run starts nothing more.
    if (stopping) return resolve(1);
    const child = spawn(command, args, {
      cwd: root,
      stdio: besideTests ? ["ignore", "pipe", "pipe"] : "inherit",
      env: { ...process.env, ...env },
      detached: true,
    });
    if (besideTests) {
      child.stdout.on("data", (chunk) => besideTests.push(chunk));
      child.stderr.on("data", (chunk) => besideTests.push(chunk));
      try {
        os.setPriority(child.pid, 10);
      } catch {
        // It has already ended.
      }
    }
    children.add(child);
    groups.add(child.pid);
    child.on("error", () => resolve(1));
    child.on("exit", (code) => {
      children.delete(child);
      resolve(code ?? 1);
    });
  });

const backends = (process.env.TEST_BACKENDS ?? "sqlite,postgres")
  .split(",")
  .map((b) => b.trim())
  .filter(Boolean);
const unknown = backends.filter((b) => !["sqlite", "postgres"].includes(b));
if (unknown.length > 0 || backends.length === 0) {
  console.error(`TEST_BACKENDS must list sqlite and/or postgres, not "${process.env.TEST_BACKENDS}"`);
  process.exit(1);
}
const chromium = testBrowser();
if (!fs.existsSync(chromium)) {
  console.error(
    `Chromium is missing at ${chromium}; install it (apt-get install chromium-headless-shell) or set CHROMIUM_PATH.`,
  );
} else if (chromium === FULL_CHROMIUM) {
  console.error(`Browser tests run in the full Chromium: apt-get install chromium-headless-shell for a quicker run.`);
}

const signalGroups = (signal) => {
  for (const group of groups) {
    try {
      process.kill(-group, signal);
    } catch {
      // The group has already gone.
    }
  }
};
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
  ["SIGHUP", 129],
]) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    console.error(`\n${signal}: stopping the run`);
    // The running step and what it started get SIGTERM and up to 20 s to
    // stop as they would in production; then whatever is left is killed.
    signalGroups("SIGTERM");
    const deadline = Date.now() + 20_000;
    while (children.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    signalGroups("SIGKILL");
    process.exit(code);
  });
}

/** The first three lines of an error, without colour codes, on one indented block. */
const firstLines = (text) =>
  String(text ?? "(no message)")
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[0-9;]*m/g, "")
    .split("\n")
    .slice(0, 3)
    .join("\n      ");

let passed = 0;
let failed = 0;
const summary = [];
const timings = [];
const count = (label, p, f) => {
  passed += p;
  failed += f;
  summary.push(`${label}: ${p} passed, ${f} failed`);
};
const phase = async (label, work) => {
  const start = Date.now();
  console.log(`\n=== ${label} ===\n`);
  await work();
  timings.push(`${label} ${((Date.now() - start) / 60_000).toFixed(1)} min`);
};

// Lint (dependency-cruiser's import boundaries and circles, ESLint with
// eslint-plugin-regexp, Prettier) runs beside Vitest, whose test files spend
// much of their time waiting on the servers they start: about one core of
// two is free there (ADR 066). What lint prints is shown when it ends; a
// finding fails the run like a failed test. The type information ESLint
// reads includes React Router's route types.
const lint = phase("Lint", async () => {
  // ESLint's type-aware pass holds the whole TypeScript program (2-3 GB),
  // and its collector took a fifth of its time: with a young generation of
  // 64 MB instead of 16 it takes a tenth less CPU (65 s against 72 from a
  // fresh clone).
  const youngGeneration = { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --max-semi-space-size=64`.trim() };
  const steps = [
    [bin("react-router"), ["typegen"]],
    [bin("depcruise"), ["app", "server", "--config", ".dependency-cruiser.js", "--output-type", "err"]],
    [
      bin("eslint"),
      [".", "--max-warnings", "0", "--cache", "--cache-location", "node_modules/.cache/eslint/"],
      youngGeneration,
    ],
    [bin("prettier"), ["--check", "."]],
  ];
  const output = [];
  let clean = true;
  for (const [command, args, env = {}] of steps) if (clean) clean = (await run(command, args, env, output)) === 0;
  console.log(`\n=== Lint: ${clean ? "clean" : "failed"} ===\n${Buffer.concat(output).toString()}`);
  if (clean) passed += 1;
  else failed += 1;
  summary.push(`lint: ${clean ? "clean" : "failed"}`);
});

const env = { TEST_BACKENDS: backends.join(",") };
const slowest = [];
/** Each failed test with the start of its error: printed last, where a CI log's tail shows it. */
const failures = [];
await phase("Vitest", async () => {
  const file = path.join(out, "vitest-summary.json");
  fs.rmSync(file, { force: true });
  const reporter = path.join(root, "tests/support/vitest-summary.ts");
  const status = await run(bin("vitest"), ["run", "--reporter=default", `--reporter=${reporter}`], {
    ...env,
    VITEST_SUMMARY: file,
  });
  try {
    const result = JSON.parse(fs.readFileSync(file, "utf8"));
    for (const [project, counts] of Object.entries(result.projects)) {
      count(`vitest ${project}`, counts.passed, counts.failed);
    }
    if (result.unhandledErrors > 0) count("vitest unhandled errors", 0, result.unhandledErrors);
    if (status !== 0 && !Object.values(result.projects).some((c) => c.failed > 0) && !result.unhandledErrors) {
      count("vitest exit status", 0, 1);
    }
    slowest.push(...result.tests.map((t) => ({ ms: t.ms, name: `[vitest ${t.project}] ${t.file} > ${t.name}` })));
    for (const t of result.tests.filter((t) => t.state === "failed")) {
      failures.push(`[vitest ${t.project}] ${t.file} > ${t.name}\n      ${firstLines(t.error)}`);
    }
  } catch {
    count("vitest", 0, 1);
    console.error("Vitest produced no results.");
  }
});
await lint;

await phase("Playwright", async () => {
  const file = path.join(out, "playwright-results.json");
  fs.rmSync(file, { force: true });
  const status = fs.existsSync(chromium)
    ? await run(bin("playwright"), ["test"], { ...env, PLAYWRIGHT_JSON: file })
    : 1;
  try {
    const result = JSON.parse(fs.readFileSync(file, "utf8"));
    const perProject = {};
    const visit = (suite) => {
      for (const spec of suite.specs ?? []) {
        for (const test of spec.tests) {
          const counts = (perProject[test.projectName] ??= { passed: 0, failed: 0 });
          if (test.status === "expected") counts.passed += 1;
          if (test.status === "unexpected" || test.status === "flaky") counts.failed += 1;
          const ms = test.results.reduce((sum, r) => sum + r.duration, 0);
          slowest.push({ ms, name: `[${test.projectName}] ${spec.file}:${spec.line} > ${spec.title}` });
          if (test.status === "unexpected" || test.status === "flaky") {
            const error = test.results.find((r) => r.error)?.error?.message;
            failures.push(
              `[${test.projectName}] ${spec.file}:${spec.line} > ${spec.title}\n      ${firstLines(error)}`,
            );
          }
        }
      }
      for (const child of suite.suites ?? []) visit(child);
    };
    for (const suite of result.suites) visit(suite);
    for (const [project, counts] of Object.entries(perProject))
      count(`playwright ${project}`, counts.passed, counts.failed);
    if (result.errors?.length) count("playwright errors", 0, result.errors.length);
    if (status !== 0 && result.stats.unexpected + result.stats.flaky === 0 && !result.errors?.length) {
      count("playwright exit status", 0, 1);
    }
  } catch {
    count("playwright", 0, 1);
    console.error("Playwright produced no results.");
  }
});

// Interrupted: the signal's handler ends the run; no summary of half a run.
if (stopping) await new Promise(() => {});

console.log("\nThe ten slowest tests:");
for (const test of slowest.sort((a, b) => b.ms - a.ms).slice(0, 10)) {
  console.log(`  ${(test.ms / 1000).toFixed(1).padStart(6)} s  ${test.name}`);
}
if (failures.length > 0) {
  console.log(`\nFailed (${failures.length}):`);
  for (const failure of failures.slice(0, 20)) console.log(`  ${failure}`);
}
console.log(`\nTime: ${timings.join(", ")}; ${((Date.now() - started) / 60_000).toFixed(1)} min in all`);
console.log(`\n${summary.join("\n")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 && passed > 0 ? 0 : 1;
