import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anotherConnection, freshDatabase, type FreshDatabase } from "../../../tests/support/database";
import { postRow } from "../../../tests/support/post-row";
import { currentCategory, findCategory } from "./category-posts.server";
import type { Connection } from "../db/db.server";
import { changingContent } from "../db/content-version.server";

/**
 * The category a process keeps (its name and count of public posts): the
 * same answer as reading it, kept while the content version holds, read
 * again after another process's write or when a scheduled post of the
 * category comes due.
 */

const now = new Date();
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();
const inCategory = (slug: string, date: string, category = "Cloud Work") => ({
  ...postRow(slug, date),
  category,
  category_slug: "cloud-work",
});

describe("the category a process keeps", () => {
  let database: FreshDatabase;
  let other: Connection;

  beforeAll(async () => {
    database = await freshDatabase();
    await database.connection.db
      .insertInto("posts")
      .values([
        ...Array.from({ length: 5 }, (_, i) => inCategory(`cloud-${i}`, minutesAgo(100 + i))),
        { ...postRow("elsewhere", minutesAgo(50)), category: "Research", category_slug: "research" },
      ])
      .execute();
    other = anotherConnection(database);
  });
  afterAll(async () => {
    await other?.db.destroy();
    await database?.cleanup();
  });

  it("answers what reading it answers, and nothing for a slug no public post has", async () => {
    const { connection } = database;
    const kept = await currentCategory(connection, "cloud-work", now);
    expect(kept).toEqual({ slug: "cloud-work", name: "Cloud Work", total: 5 });
    expect(kept).toEqual(await findCategory(connection.db, "cloud-work", now));
    expect(await currentCategory(connection, "no-such-category", now)).toBeUndefined();
    expect(await currentCategory(connection, "Not A Slug!", now)).toBeUndefined();
  });

  it("is kept while the content version holds: no count per render", async () => {
    const { connection } = database;
    const first = await currentCategory(connection, "cloud-work", now);
    // A row written without a content change (no process would): the kept answer stands.
    await other.db
      .insertInto("posts")
      .values(inCategory("unannounced", minutesAgo(90)))
      .execute();
    expect(await currentCategory(connection, "cloud-work", new Date(now.getTime() + 1000))).toBe(first);
    await other.db.deleteFrom("posts").where("slug", "=", "unannounced").execute();
  });

  it("is read again after another process writes public content", async () => {
    const { connection } = database;
    expect((await currentCategory(connection, "cloud-work", now))?.total).toBe(5);
    await changingContent(other.db, (trx) =>
      trx
        .insertInto("posts")
        .values(inCategory("cloud-new", minutesAgo(10), "cloud work"))
        .execute(),
    );
    // The newest post's spelling names the page.
    expect(await currentCategory(connection, "cloud-work", now)).toEqual({
      slug: "cloud-work",
      name: "cloud work",
      total: 6,
    });
    await changingContent(other.db, (trx) => trx.deleteFrom("posts").where("slug", "=", "cloud-new").execute());
    expect(await currentCategory(connection, "cloud-work", now)).toEqual({
      slug: "cloud-work",
      name: "Cloud Work",
      total: 5,
    });
  });

  it("is read again when a scheduled post of the category comes due, with no write in between", async () => {
    const { connection } = database;
    const due = new Date(now.getTime() + 60_000);
    await changingContent(other.db, (trx) =>
      trx.insertInto("posts").values(inCategory("cloud-scheduled", due.toISOString())).execute(),
    );
    expect((await currentCategory(connection, "cloud-work", new Date(due.getTime() - 1)))?.total).toBe(5);
    expect((await currentCategory(connection, "cloud-work", due))?.total).toBe(6);
  });
});
