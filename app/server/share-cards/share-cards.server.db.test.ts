import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../../tests/support/backend";
import { connect, migrateToLatest, type Connection } from "../db/db.server";
import { resolveDatabase } from "../platform/config.server";
import { pruneShareCards } from "./prune.server";

/** ADR 073: the share_cards table stays bounded: by age (30 days unnamed) and by count. */

let database: Connection;
let drop: () => Promise<void>;

beforeAll(async () => {
  const created = await createTestDatabase(undefined, { migrated: true });
  drop = created.drop;
  database = connect(resolveDatabase(created.url, process.cwd()));
  await migrateToLatest(database.db);
});
afterAll(async () => {
  await database?.db.destroy();
  await drop?.();
});

const DAY = 24 * 60 * 60_000;
const NOW = Date.parse("2026-11-29T12:00:00.000Z");

async function insertCards(seenDaysAgo: number[]) {
  await database.db.deleteFrom("share_cards").execute();
  await database.db
    .insertInto("share_cards")
    .values(
      seenDaysAgo.map((days, i) => ({
        key: i.toString(16).padStart(32, "0"),
        bytes: new Uint8Array([0xff, 0xd8, i]),
        created_at: new Date(NOW - 40 * DAY).toISOString(),
        seen_at: new Date(NOW - days * DAY).toISOString(),
      })),
    )
    .execute();
}

const keysLeft = async () =>
  (await database.db.selectFrom("share_cards").select("key").orderBy("key").execute()).map((row) =>
    Number(`0x${row.key}`),
  );

describe("pruneShareCards", () => {
  it("removes the cards no page named for 30 days", async () => {
    await insertCards([0, 29, 31, 365]);
    expect(await pruneShareCards(database.db, NOW)).toBe(2);
    expect(await keysLeft()).toEqual([0, 1]);
  });

  it("past the cap, removes the cards named longest ago first", async () => {
    await insertCards([5, 1, 3, 2, 4]);
    expect(await pruneShareCards(database.db, NOW, 3)).toBe(2);
    expect(await keysLeft()).toEqual([1, 2, 3]);
  });
});
