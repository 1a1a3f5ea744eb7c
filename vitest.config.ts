// Vitest runs unit tests, HTTP tests (against real server processes) and the
// integration tests. Where a file runs is in its name (docs/testing.md): a
// `*.db.test.ts` file reaches the database under test and runs once per
// backend, in a project named after it; every other file runs once, in the
// `once` project. The backends are TEST_BACKENDS's (npm test sets
// sqlite,postgres), else TEST_DATABASE's, else SQLite alone.
import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";
import { LongFilesFirst } from "./tests/support/sequencer.ts";

const root = import.meta.dirname;
const ALL = ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "tests/**/*.test.ts"];
const DATABASE = ["app/**/*.db.test.{ts,tsx}", "server/**/*.db.test.ts", "tests/**/*.db.test.ts"];

const backends = (process.env.TEST_BACKENDS ?? process.env.TEST_DATABASE ?? "sqlite")
  .split(",")
  .map((backend) => backend.trim())
  .filter(Boolean);

export default defineConfig({
  resolve: { alias: { "~": path.resolve(root, "app") } },
  test: {
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // API tests each start a server process and spend much of their time
    // waiting on it or on a clock; four at a time keeps a 2-core machine
    // busy when three wait at once (ADR 089).
    maxWorkers: Number(process.env.VITEST_WORKERS ?? 4),
    // A test that bounds how long some work holds the event loop collects
    // the heap first (measureEventLoopHold): a shared worker's heap holds
    // what earlier files left, and its collection is not that work's.
    execArgv: ["--expose-gc"],
    // Without an earlier run's times, integration files start first (ADR 083).
    sequence: { sequencer: LongFilesFirst },
    projects: [
      // TEST_DATABASE=none: tests/support/backend.ts refuses to load, so a
      // file that reaches a database without the suffix fails at once.
      {
        extends: true,
        test: {
          name: "once",
          include: ALL,
          exclude: [...configDefaults.exclude, "**/*.db.test.*"],
          env: { TEST_DATABASE: "none" },
          // These files share worker processes instead of one new process
          // each: a quarter less CPU for the project. So a file here leaves
          // no state behind (mocks restored, timers real) that another could
          // read (docs/testing.md).
          isolate: false,
        },
      },
      // The setup file fails a `*.db.test.ts` file that never reached the
      // backend: it would run twice for nothing.
      ...backends.map((backend) => ({
        extends: true as const,
        test: {
          name: backend,
          include: DATABASE,
          env: { TEST_DATABASE: backend },
          setupFiles: ["tests/support/reaches-backend.ts"],
          // Shared worker processes too (ADR 084): the setup file gives each
          // file fresh modules and its starting environment.
          isolate: false,
          // The PostgreSQL to run on, found or started once for the run.
          globalSetup: backend === "postgres" ? ["tests/support/postgres-setup.ts"] : [],
        },
      })),
    ],
  },
});
