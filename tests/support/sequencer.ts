// Vitest's order of files (vitest.config.ts). Its own sequencer starts the
// files an earlier run found longest first, so that the short ones fill the
// cores at the end; with no earlier run (a fresh clone, CI) it starts the
// largest files first. A long file can be short to read: the newsletter's
// kill test (10,000 real mails) is 171 lines and ran last from a fresh
// clone, alone on a core for its last minute. So, without an earlier run's
// times, each project's integration tests (tests/integration: processes
// killed, restarted and loaded) start before its other files.
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const LONG = `${path.sep}tests${path.sep}integration${path.sep}`;

export class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const timed = (spec: TestSpecification) =>
      this.ctx.cache.getFileTestResults(
        `${spec.project.name}:${path.relative(this.ctx.config.root, spec.moduleId)}`,
      ) !== undefined;
    if (sorted.every(timed)) return sorted;
    // Projects keep Vitest's order; within one, integration files go first.
    // The sort is stable: each group keeps Vitest's order.
    const projects = [...new Set(sorted.map((spec) => spec.project.name))];
    const rank = (spec: TestSpecification) =>
      projects.indexOf(spec.project.name) * 2 + (spec.moduleId.includes(LONG) ? 0 : 1);
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
