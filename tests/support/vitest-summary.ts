// A Vitest reporter for scripts/run-tests.mjs: what passed and failed per
// project (once, sqlite, postgres) and every test's duration, written to the
// JSON file VITEST_SUMMARY names. Vitest's own JSON does not say which
// project a result belongs to. Each file's time per project is there too, to
// find where the phase's time goes (docs/performance.md, "The suite").
import fs from "node:fs";
import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";

export interface VitestSummary {
  projects: Record<string, { passed: number; failed: number }>;
  /** `start`: when the test began, ms since the epoch, to see which files ran together. */
  tests: Array<{
    project: string;
    name: string;
    file: string;
    start: number;
    ms: number;
    state: string;
    error?: string;
  }>;
  /** Per file and project: importing it, its setup files, its tests and hooks. */
  files: Array<{ project: string; file: string; ms: number }>;
  unhandledErrors: number;
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>) {
    const out = process.env.VITEST_SUMMARY;
    if (!out) return;
    const summary: VitestSummary = { projects: {}, tests: [], files: [], unhandledErrors: unhandledErrors.length };
    for (const module of modules) {
      const project = module.project.name || "default";
      const counts = (summary.projects[project] ??= { passed: 0, failed: 0 });
      const file = path.relative(process.cwd(), module.moduleId);
      const took = module.diagnostic();
      summary.files.push({ project, file, ms: took.collectDuration + took.setupDuration + took.duration });
      let failedHere = 0;
      for (const test of module.children.allTests()) {
        const result = test.result();
        const state = result.state;
        const diagnostic = test.diagnostic();
        if (state === "passed") counts.passed += 1;
        if (state === "failed") failedHere += 1;
        summary.tests.push({
          project,
          name: test.fullName,
          file,
          start: diagnostic?.startTime ?? 0,
          ms: diagnostic?.duration ?? 0,
          state,
          // The first lines of why, for the run's last lines (CI shows only its tail).
          error: result.errors?.[0]?.message?.slice(0, 500),
        });
      }
      // A file that failed outside its tests (it did not load, or a hook
      // failed) counts once, even when its tests were only skipped.
      if (failedHere === 0 && (module.state() === "failed" || module.errors().length > 0)) {
        failedHere = 1;
        const error = module.errors()[0]?.message?.slice(0, 500);
        summary.tests.push({ project, name: "(the file itself)", file, start: 0, ms: 0, state: "failed", error });
      }
      counts.failed += failedHere;
    }
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify(summary));
  }
}
