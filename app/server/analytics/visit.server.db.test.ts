import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, type FreshDatabase } from "../../../tests/support/database";
import type { Db } from "../db/db.server";
import { AnalyticsCounter } from "./counter.server";
import { writeCounts } from "./store.server";
import { visitOf } from "./visit.server";

/**
 * A lead's source is its sender's visit's (ADR 070), found wherever the
 * view is at that moment: counted in memory, taken by a write not yet
 * committed, or written to the database. A sender with no view came direct.
 */

let database: FreshDatabase;
let db: Db;
const NOW = new Date("2026-11-27T12:00:00Z");
const SITE = "www.example.com";
const UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const client = { address: "203.0.113.9", userAgent: UA };

beforeAll(async () => {
  database = await freshDatabase();
  db = database.connection.db;
});
afterAll(() => database?.cleanup());

const view = (counter: AnalyticsCounter, url: string, referer?: string) =>
  counter.recordView(url, { accept: "text/html", "user-agent": UA, referer }, client.address, SITE, NOW);

describe("visitOf", () => {
  it("finds the visit in memory, in a write under way, then in the database", async () => {
    const counter = new AnalyticsCounter();
    expect(await visitOf(db, client, counter, NOW)).toEqual({ source: "direct", campaign: null });

    view(counter, "/about?utm_source=newsletter&utm_campaign=winter");
    expect(await visitOf(db, client, counter, NOW)).toEqual({ source: "newsletter", campaign: "winter" });

    // A write has taken the counts and not committed them yet.
    counter.take();
    expect(await visitOf(db, client, counter, NOW)).toEqual({ source: "newsletter", campaign: "winter" });
    // A view counted since, with no source of its own, does not hide the one being written.
    view(counter, "/blog", `https://${SITE}/about`);
    expect(await visitOf(db, client, counter, NOW)).toEqual({ source: "newsletter", campaign: "winter" });
    counter.written();
    expect(await visitOf(db, client, counter, NOW)).toEqual({ source: "direct", campaign: null });
  });

  it("another site's source wins over direct, once written", async () => {
    const counter = new AnalyticsCounter();
    view(counter, "/", "https://news.example.org/item?id=7");
    view(counter, "/blog");
    await writeCounts(db, counter, NOW);
    view(counter, "/about");
    expect(await visitOf(db, client, counter, NOW)).toEqual({ source: "news.example.org", campaign: null });
    expect(await visitOf(db, { ...client, address: "203.0.113.10" }, counter, NOW)).toEqual({
      source: "direct",
      campaign: null,
    });
  });
});
