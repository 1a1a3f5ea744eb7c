import { afterEach, describe, expect, it } from "vitest";
import { freshDatabase } from "../../../tests/support/database";
import { healthResponse } from "./health.server";

describe("healthResponse", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it("answers 200 when the database answers", async () => {
    const { connection, cleanup } = await freshDatabase();
    cleanups.push(cleanup);
    const response = await healthResponse(connection.db);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", database: "ok" });
  });

  it("answers 503 when the database does not", async () => {
    const { connection, cleanup } = await freshDatabase();
    cleanups.push(cleanup);
    await connection.db.destroy();
    const response = await healthResponse(connection.db);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ status: "unavailable" });
  });
});
