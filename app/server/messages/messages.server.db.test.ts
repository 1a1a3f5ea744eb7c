import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, type FreshDatabase } from "../../../tests/support/database";
import { countMessagesBySender, deleteMessagesFrom, messagesForExport } from "./contact.server";
import { countLeadsByStatus } from "./leads.server";
import type { Db } from "../db/db.server";

/**
 * The inbox's export reads by keyset (created_at, id) a page at a time
 * (ADR 035): the pages together are every matching message once, newest
 * first, also when many share one created_at across a page's edge.
 */

let fresh: FreshDatabase;
let db: Db;
const ids: Array<{ id: string; createdAt: string }> = [];

beforeAll(async () => {
  fresh = await freshDatabase();
  db = fresh.connection.db;
  // 23 messages on 5 distinct instants: ties everywhere, whatever the page size.
  for (let i = 0; i < 23; i++) {
    const createdAt = new Date(Date.UTC(2026, 10, 1 + (i % 5))).toISOString();
    const id = randomUUID();
    ids.push({ id, createdAt });
    await db
      .insertInto("contact_messages")
      .values({
        id,
        name: `Sender ${i}`,
        email: i % 4 === 0 ? "Same.Sender@Example.com" : `sender${i}@example.com`,
        phone: null,
        preferred_contact: "email",
        service: "media",
        message: `Message ${i}`,
        created_at: createdAt,
        read_at: i % 3 === 0 ? createdAt : null,
        notice_status: "off",
        notice_attempts: 0,
        notice_next_at: null,
        notice_error: null,
      })
      .execute();
  }
}, 30_000);
afterAll(() => fresh?.cleanup());

const newestFirst = () =>
  [...ids]
    .sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1))
    .map((row) => row.id);

async function exported(
  pageSize: number,
  filter: Parameters<typeof messagesForExport>[1] = { status: "all", read: "all", sort: "newest" },
) {
  const out: string[] = [];
  for await (const message of messagesForExport(db, filter, pageSize)) out.push(message.id);
  return out;
}

describe("messagesForExport", () => {
  it.each([1, 2, 3, 4, 5, 22, 23, 24, 200])(
    "with pages of %i, gives every message once, newest first",
    async (size) => {
      expect(await exported(size)).toEqual(newestFirst());
    },
  );

  it("keeps to the filter across pages", async () => {
    const unread = await exported(2, { status: "all", read: "unread", sort: "newest" });
    expect(unread).toHaveLength(23 - 8);
    const same = await exported(2, { status: "all", read: "all", sort: "newest", q: "SAME.sender" });
    expect(same).toHaveLength(6);
  });
});

describe("senders", () => {
  it("counts and deletes by e-mail ignoring case", async () => {
    const counts = await countMessagesBySender(db, ["same.sender@example.com", "SENDER1@example.com", "nobody@x.org"]);
    expect(Object.fromEntries(counts)).toEqual({ "same.sender@example.com": 6, "sender1@example.com": 1 });
    expect(await deleteMessagesFrom(db, "SAME.SENDER@EXAMPLE.COM")).toBe(6);
    expect(await deleteMessagesFrom(db, "same.sender@example.com")).toBe(0);
    expect(await exported(200)).toHaveLength(17);
  });
});

describe("leads by status", () => {
  it("counts each status as a number, every status named (PostgreSQL answers a count as text)", async () => {
    const left = (await db.selectFrom("contact_messages").select("id").orderBy("id").execute()).map((row) => row.id);
    const set = (status: "won" | "spam" | "contacted", some: string[]) =>
      db.updateTable("contact_messages").set({ status }).where("id", "in", some).execute();
    await set("won", left.slice(0, 2));
    await set("spam", left.slice(2, 3));
    await set("contacted", left.slice(3, 5));
    expect(await countLeadsByStatus(db)).toEqual({
      new: left.length - 5,
      contacted: 2,
      qualified: 0,
      won: 2,
      lost: 0,
      spam: 1,
    });
  });
});
