#!/usr/bin/env node
// The whole suite: Vitest (unit and API against real servers), then Playwright
// (end to end in Chromium). Ends with one line: "N passed, N failed".
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const out = path.join(root, ".tmp");
fs.mkdirSync(out, { recursive: true });
const vitestJson = path.join(out, "vitest-results.json");
const playwrightJson = path.join(out, "playwright-results.json");
for (const file of [vitestJson, playwrightJson]) fs.rmSync(file, { force: true });

const bin = (name) => path.join(root, "node_modules", ".bin", name);
const run = (command, args) => spawnSync(command, args, { cwd: root, stdio: "inherit", env: process.env }).status;

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!fs.existsSync(chromium)) {
  console.error(`Chromium is missing at ${chromium}; install it (apt-get install chromium) or set CHROMIUM_PATH.`);
}

const vitestStatus = run(bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestJson}`]);
const playwrightStatus = fs.existsSync(chromium) ? run(bin("playwright"), ["test"]) : 1;

let passed = 0;
let failed = 0;
try {
  const v = JSON.parse(fs.readFileSync(vitestJson, "utf8"));
  passed += v.numPassedTests;
  failed += v.numFailedTests;
  // A test file that could not even load counts as a failure.
  failed += v.testResults.filter((file) => file.status === "failed" && file.assertionResults.length === 0).length;
} catch {
  failed += 1;
  console.error("Vitest produced no results.");
}
try {
  const p = JSON.parse(fs.readFileSync(playwrightJson, "utf8"));
  passed += p.stats.expected;
  failed += p.stats.unexpected + p.stats.flaky;
  if (p.errors?.length) failed += p.errors.length;
} catch {
  failed += 1;
  console.error("Playwright produced no results.");
}

const ok = vitestStatus === 0 && playwrightStatus === 0 && failed === 0 && passed > 0;
console.log(`${passed} passed, ${failed} failed`);
process.exit(ok ? 0 : 1);
