// A setup file of Vitest's backend projects (vitest.config.ts), run before
// each `*.db.test.ts` file. Their files share worker processes (ADR 084):
// each file still gets the project's modules evaluated afresh and the
// environment it started with, so that what one file sets (a variable, a
// domain's init, the configuration read once) cannot reach the next. What
// the sharing saves is a new process and the dependencies in node_modules.
//
// And a `*.db.test.ts` file runs once per backend, so one that never loads
// tests/support/backend.ts (directly or through server.ts, database.ts)
// cannot differ between them and is misnamed.
import { afterAll, vi } from "vitest";

vi.resetModules();
const environment = { ...process.env };

const state = globalThis as { reachedTestBackend?: boolean };
state.reachedTestBackend = false;

// Hooks after a file's tests run in reverse order: this one runs last.
afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name];
  Object.assign(process.env, environment);
  if (!state.reachedTestBackend) {
    throw new Error("this *.db.test.ts file never reaches the database under test: drop .db from its name");
  }
});
