import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../../tests/support/backend";
import { connect, migrateToLatest, type Connection } from "../db/db.server";
import { resolveDatabase } from "../platform/config.server";
import { pruneShareCards } from "./prune.server";
import { storeShareCard } from "./store.server";
import { shareCardKey, textSubject } from "./subject.server";

/**
 * ADR 073: a page's newest card stays; the ones it named before are marked
 * superseded, whatever order their jobs end in, and go 30 days later; the
 * table never outgrows its cap.
 */

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
const ago = (days: number) => new Date(NOW - days * DAY).toISOString();

/** Cards numbered 0.., each its own page unless `page` says, named `named` days ago, superseded `superseded` days ago. */
async function insertCards(cards: Array<{ named: number; superseded?: number; page?: string }>) {
  await database.db.deleteFrom("share_cards").execute();
  await database.db
    .insertInto("share_cards")
    .values(
      cards.map((card, i) => ({
        key: i.toString(16).padStart(32, "0"),
        page: card.page ?? `/blog/post-${i}`,
        bytes: new Uint8Array([0xff, 0xd8, i]),
        named_at: ago(card.named),
        superseded_at: card.superseded === undefined ? null : ago(card.superseded),
      })),
    )
    .execute();
}

const keysLeft = async () =>
  (await database.db.selectFrom("share_cards").select("key").orderBy("key").execute()).map((row) =>
    Number(`0x${row.key}`),
  );

describe("pruneShareCards", () => {
  it("removes cards superseded over 30 days ago, never a page's newest however old", async () => {
    await insertCards([{ named: 400 }, { named: 60, superseded: 29 }, { named: 60, superseded: 31 }, { named: 1 }]);
    expect(await pruneShareCards(database.db, NOW)).toBe(1);
    expect(await keysLeft()).toEqual([0, 1, 3]);
  });

  it("past the cap, removes superseded cards first, then the ones named longest ago", async () => {
    await insertCards([
      { named: 5 },
      { named: 1 },
      { named: 9, superseded: 2 },
      { named: 3 },
      { named: 8, superseded: 1 },
    ]);
    expect(await pruneShareCards(database.db, NOW, 3)).toBe(2);
    expect(await keysLeft()).toEqual([0, 1, 3]);
    expect(await pruneShareCards(database.db, NOW, 2)).toBe(1);
    expect(await keysLeft()).toEqual([1, 3]);
  });
});

describe("storeShareCard", () => {
  const order = (title: string, namedAt: string) => ({
    page: "/blog/renamed",
    subject: textSubject({ label: "Cloud", title, site: "Ojai", host: "ojai.example" }),
    namedAt,
  });
  const states = async () =>
    Object.fromEntries(
      (await database.db.selectFrom("share_cards").select(["key", "superseded_at"]).execute()).map((row) => [
        row.key,
        row.superseded_at === null ? "newest" : "superseded",
      ]),
    );

  it.each([
    ["in order", false],
    ["the newer one's job first", true],
  ])("keeps the card the page named last as its newest, %s", async (_name, newerFirst) => {
    await database.db.deleteFrom("share_cards").execute();
    const older = order("Before", ago(2));
    const newer = order("After", ago(1));
    for (const card of newerFirst ? [newer, older] : [older, newer]) await storeShareCard(database.db, card);
    expect(await states()).toEqual({
      [shareCardKey(older.page, older.subject)]: "superseded",
      [shareCardKey(newer.page, newer.subject)]: "newest",
    });
  });
});
