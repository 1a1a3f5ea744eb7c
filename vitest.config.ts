// Vitest runs unit tests, API tests (against real server processes) and the
// integration tests. With TEST_BACKENDS set (npm test sets it), a test file
// that reaches a database under test runs once per backend and every other
// file runs once (docs/testing.md); without it, every file runs once on the
// backend TEST_DATABASE names (SQLite by default), as when working on one file.
import fs from "node:fs";
import path from "node:path";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

const root = import.meta.dirname;
const INCLUDE = ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "tests/integration/**/*.test.ts"];

/**
 * Whether a test file reaches the database under test: it reads the backend
 * (TEST_DATABASE, TEST_BACKEND) itself or through the helpers in tests/support
 * it imports, which are followed to the end.
 */
function reachesDatabase(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file) || !fs.existsSync(file)) return false;
  seen.add(file);
  const text = fs.readFileSync(file, "utf8");
  if (text.includes("TEST_DATABASE") || text.includes("TEST_BACKEND")) return true;
  const imports = [...text.matchAll(/from "(\.{1,2}\/[^"]+)"/g)].map((match) => match[1]!);
  return imports
    .map((specifier) => path.resolve(path.dirname(file), specifier))
    .filter((target) => target.startsWith(path.join(root, "tests", "support")))
    .some((target) => [".ts", ".mjs", ""].some((ext) => reachesDatabase(target + ext, seen)));
}

/** The files INCLUDE matches, as paths from the root. */
function testFiles(): string[] {
  const under = (dir: string, pattern: RegExp) =>
    fs
      .readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
      .filter((file) => pattern.test(file))
      .map((file) => path.join(dir, file));
  return [
    ...under("app", /\.test\.tsx?$/),
    ...under("server", /\.test\.ts$/),
    ...under("tests/integration", /\.test\.ts$/),
  ];
}

const backends = process.env.TEST_BACKENDS?.split(",")
  .map((backend) => backend.trim())
  .filter(Boolean);

function projects(): TestProjectInlineConfiguration[] | undefined {
  if (!backends) return undefined;
  const files = testFiles();
  const perBackend = files.filter((file) => reachesDatabase(path.join(root, file)));
  const once = files.filter((file) => !perBackend.includes(file));
  return [
    { extends: true, test: { name: "once", include: once } },
    ...backends.map((backend) => ({
      extends: true as const,
      test: { name: backend, include: perBackend, env: { TEST_DATABASE: backend } },
    })),
  ];
}

export default defineConfig({
  resolve: { alias: { "~": path.resolve(root, "app") } },
  test: {
    // With projects, each project names its files (a project's list would add to this one).
    include: backends ? [] : INCLUDE,
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // API tests each start a server process and spend most of their time
    // waiting on it; three at a time keeps a 2-core machine busy.
    maxWorkers: Number(process.env.VITEST_WORKERS ?? 3),
    projects: projects(),
  },
});
