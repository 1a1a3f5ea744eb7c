import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anotherConnection, freshDatabase, type FreshDatabase } from "../../../tests/support/database";
import { bumpContentVersion } from "./content-version.server";
import type { Connection, Db } from "./db.server";
import { inSnapshot } from "./snapshot.server";

/** Reads in one snapshot do not see a write another process commits between them (backend under test). */

let database: FreshDatabase;
let other: Connection;

beforeAll(async () => {
  database = await freshDatabase();
  other = anotherConnection(database);
});
afterAll(async () => {
  await other?.db.destroy();
  await database?.cleanup();
});

const readVersion = async (db: Db) =>
  String((await db.selectFrom("content_version").select("version").executeTakeFirstOrThrow()).version);

describe("inSnapshot", () => {
  it("keeps its first read's view while another connection commits", async () => {
    const [first, second] = await inSnapshot(database.connection, async (db) => {
      const first = await readVersion(db);
      await bumpContentVersion(other.db);
      return [first, await readVersion(db)];
    });
    expect(second).toBe(first);
    // Outside it, and in the next one, the write shows.
    const after = await readVersion(database.connection.db);
    expect(after).not.toBe(first);
    expect(await inSnapshot(database.connection, readVersion)).toBe(after);
  });
});
