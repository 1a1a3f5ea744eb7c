import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SPAM_KEPT } from "~/lib/leads";
import { freshDatabase, type FreshDatabase } from "../../../tests/support/database";
import { storeContactMessage } from "./contact.server";
import type { Db } from "../db/db.server";

/**
 * Spam is kept, but bounded (ADR 070): past SPAM_KEPT spam messages the
 * oldest go as each new one is stored; messages that are not spam are
 * never pruned with them.
 */

let fresh: FreshDatabase;
let db: Db;
beforeAll(async () => {
  fresh = await freshDatabase();
  db = fresh.connection.db;
});
afterAll(() => fresh?.cleanup());

const input = (name: string) => ({
  name,
  email: `${name}@example.com`,
  phone: null,
  preferredContact: "email" as const,
  service: "media" as const,
  message: "https://spam.example",
});
const origin = { sourcePage: null, source: "direct", campaign: null };

describe("spam kept apart", () => {
  it(`keeps the newest ${SPAM_KEPT} spam messages and every other message`, async () => {
    await storeContactMessage(
      db,
      { ...input("real"), message: "A real lead" },
      {
        notify: false,
        acknowledge: false,
        origin,
        spamReason: null,
      },
    );
    // Older spam, written directly: one statement instead of SPAM_KEPT stores.
    const old = Array.from({ length: SPAM_KEPT }, (_, i) => ({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      name: `old ${i}`,
      email: "bot@example.com",
      phone: null,
      preferred_contact: "email",
      service: "media",
      message: "https://spam.example",
      created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      read_at: null,
      notice_status: "off" as const,
      notice_attempts: 0,
      notice_next_at: null,
      notice_error: null,
      status: "spam" as const,
      spam_reason: "links-only",
    }));
    for (let i = 0; i < old.length; i += 100)
      await db
        .insertInto("contact_messages")
        .values(old.slice(i, i + 100))
        .execute();

    for (const name of ["new 1", "new 2", "new 3"])
      await storeContactMessage(db, input(name), {
        notify: false,
        acknowledge: false,
        origin,
        spamReason: "links-only",
      });

    const spam = await db.selectFrom("contact_messages").select("name").where("status", "=", "spam").execute();
    expect(spam).toHaveLength(SPAM_KEPT);
    const names = new Set(spam.map((row) => row.name));
    for (const gone of ["old 0", "old 1", "old 2"]) expect(names.has(gone)).toBe(false);
    for (const kept of ["old 3", "old 499", "new 1", "new 3"]) expect(names.has(kept)).toBe(true);
    const real = await db.selectFrom("contact_messages").select("status").where("name", "=", "real").execute();
    expect(real).toEqual([{ status: "new" }]);
  });
});
