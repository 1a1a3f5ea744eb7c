// A setup file of Vitest's backend projects (vitest.config.ts): a
// `*.db.test.ts` file runs once per backend, so one that never loads
// tests/support/backend.ts (directly or through server.ts, database.ts)
// cannot differ between them and is misnamed.
import { afterAll } from "vitest";

const state = globalThis as { reachedTestBackend?: boolean };
state.reachedTestBackend = false;

afterAll(() => {
  if (!state.reachedTestBackend) {
    throw new Error("this *.db.test.ts file never reaches the database under test: drop .db from its name");
  }
});
