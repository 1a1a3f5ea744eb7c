import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, type FreshDatabase } from "../../../tests/support/database";
import { postRow } from "../../../tests/support/post-row";
import { currentListShape } from "./public-list.server";
import { findPublicArticle, listPublicSummaries } from "./public-posts.server";

/**
 * An article's neighbours and index agree with the list's order, ties of
 * publish date included (posts of one moment are ordered by id), on the
 * backend under test.
 */

let database: FreshDatabase;
const now = new Date();
const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * 60_000).toISOString();

beforeAll(async () => {
  database = await freshDatabase();
  // Three moments, five posts at the middle one; a draft and a scheduled post at the same moment as others.
  const dates = [at(1), at(5), at(5), at(5), at(5), at(5), at(9)];
  const rows = dates.map((date, i) => ({ date, published: 1, slug: `post-${i}` }));
  rows.push({ date: at(5), published: 0, slug: "draft" }, { date: at(-5), published: 1, slug: "scheduled" });
  await database.connection.db
    .insertInto("posts")
    .values(rows.map(({ date, published, slug }) => postRow(slug, date, published)))
    .execute();
});
afterAll(() => database?.cleanup());

describe("findPublicArticle", () => {
  it("gives each article the neighbours and index of its place in the list", async () => {
    const { connection } = database;
    const list = (await listPublicSummaries(connection.db, { limit: 100, offset: 0, now })).map((post) => post.slug);
    expect(list).toHaveLength(7);
    expect((await currentListShape(connection, now)).total).toBe(7);
    for (const [index, slug] of list.entries()) {
      const found = await findPublicArticle(connection, slug, now);
      expect(found?.index, slug).toBe(index);
      expect(found?.previous?.slug ?? null, slug).toBe(list[index - 1] ?? null);
      expect(found?.next?.slug ?? null, slug).toBe(list[index + 1] ?? null);
    }
    expect(await findPublicArticle(connection, "draft", now)).toBeUndefined();
    expect(await findPublicArticle(connection, "scheduled", now)).toBeUndefined();
  });
});
