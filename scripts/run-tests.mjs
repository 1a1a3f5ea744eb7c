#!/usr/bin/env node
// The whole suite, once per database backend: Vitest (unit tests and API tests
// against real servers), then Playwright (end to end in Chromium).
// Ends with one line: "N passed, N failed".
//
// TEST_BACKENDS=sqlite,postgres (the default) chooses the backends. PostgreSQL
// comes from TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/test,
// a role that may create databases). When it does not answer, that is a
// failure, never a silent skip; a developer without PostgreSQL can run
// TEST_BACKENDS=sqlite npm test.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";

const root = path.resolve(import.meta.dirname, "..");
const out = path.join(root, ".tmp");
fs.mkdirSync(out, { recursive: true });

const bin = (name) => path.join(root, "node_modules", ".bin", name);
const run = (command, args, env) =>
  spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } }).status;

const backends = (process.env.TEST_BACKENDS ?? "sqlite,postgres")
  .split(",")
  .map((b) => b.trim())
  .filter(Boolean);
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!fs.existsSync(chromium)) {
  console.error(`Chromium is missing at ${chromium}; install it (apt-get install chromium) or set CHROMIUM_PATH.`);
}

let passed = 0;
let failed = 0;
let ok = true;
const summary = [];

// Lint first (dependency-cruiser's import boundaries and circles, ADR 050;
// ESLint, with eslint-plugin-regexp's checks for patterns that can freeze the
// server): a finding fails the run like a failed test. The type
// information it reads includes the route types React Router generates.
console.log("\n=== Lint ===\n");
if (
  run(bin("react-router"), ["typegen"]) === 0 &&
  run(bin("depcruise"), ["app", "server", "--config", ".dependency-cruiser.js", "--output-type", "err"]) === 0 &&
  run(bin("eslint"), [".", "--max-warnings", "0"]) === 0 &&
  run(bin("prettier"), ["--check", "."]) === 0
) {
  passed += 1;
  summary.push("lint: clean");
} else {
  failed += 1;
  ok = false;
  summary.push("lint: failed");
}

async function postgresAnswers() {
  const url = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch (error) {
    console.error(`\nPostgreSQL tests cannot run: ${url} does not answer (${error.message}).`);
    console.error("Start PostgreSQL (docs/operations.md, PostgreSQL) or run TEST_BACKENDS=sqlite npm test.\n");
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

for (const backend of backends) {
  if (!["sqlite", "postgres"].includes(backend)) {
    console.error(`Unknown backend in TEST_BACKENDS: ${backend}`);
    failed += 1;
    ok = false;
    continue;
  }
  if (backend === "postgres" && !(await postgresAnswers())) {
    failed += 1;
    ok = false;
    summary.push(`${backend}: could not run`);
    continue;
  }
  console.log(`\n=== Backend: ${backend} ===\n`);
  const vitestJson = path.join(out, `vitest-results-${backend}.json`);
  const playwrightJson = path.join(out, `playwright-results-${backend}.json`);
  for (const file of [vitestJson, playwrightJson]) fs.rmSync(file, { force: true });
  const env = { TEST_DATABASE: backend, PLAYWRIGHT_JSON: playwrightJson };

  const vitestStatus = run(
    bin("vitest"),
    ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestJson}`],
    env,
  );
  const playwrightStatus = fs.existsSync(chromium) ? run(bin("playwright"), ["test"], env) : 1;

  let p0 = passed;
  let f0 = failed;
  try {
    const v = JSON.parse(fs.readFileSync(vitestJson, "utf8"));
    passed += v.numPassedTests;
    failed += v.numFailedTests;
    // A test file that could not even load counts as a failure.
    failed += v.testResults.filter((file) => file.status === "failed" && file.assertionResults.length === 0).length;
  } catch {
    failed += 1;
    console.error(`Vitest produced no results (${backend}).`);
  }
  try {
    const p = JSON.parse(fs.readFileSync(playwrightJson, "utf8"));
    passed += p.stats.expected;
    failed += p.stats.unexpected + p.stats.flaky;
    if (p.errors?.length) failed += p.errors.length;
  } catch {
    failed += 1;
    console.error(`Playwright produced no results (${backend}).`);
  }
  if (vitestStatus !== 0 || playwrightStatus !== 0) ok = false;
  summary.push(`${backend}: ${passed - p0} passed, ${failed - f0} failed`);
}

console.log(`\n${summary.join("\n")}`);
ok = ok && failed === 0 && passed > 0;
console.log(`${passed} passed, ${failed} failed`);
process.exit(ok ? 0 : 1);
