import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BLOG_PAGE_SIZE, pageOfIndex } from "~/lib/blog-pages";
import { anotherConnection, freshDatabase, type FreshDatabase } from "../../../tests/support/database";
import { postRow } from "../../../tests/support/post-row";
import type { Connection, Db } from "../db/db.server";
import { changingContent } from "../db/content-version.server";
import { ANCHOR_SPACING, currentListShape, readListShape } from "./public-list.server";
import { findPublicArticle, listPublicSummaries } from "./public-posts.server";
import { type PostSummary } from "./post-shape.server";

/**
 * The public list's shape (its length and anchors) against the list itself,
 * on the backend under test: every anchor, an article's index and every list
 * page agree with counting, ties of publish date included. And the shape a
 * process keeps is read again when another process writes or a scheduled
 * post comes due.
 */

const now = new Date();
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();

async function insertPosts(db: Db, rows: ReturnType<typeof postRow>[]) {
  for (let i = 0; i < rows.length; i += 200) {
    await db
      .insertInto("posts")
      .values(rows.slice(i, i + 200))
      .execute();
  }
}

/** The whole public list at `at`, the way the blog reads it without a shape. */
async function wholeList(db: Db, at: Date): Promise<PostSummary[]> {
  return listPublicSummaries(db, { limit: 100_000, offset: 0, now: at });
}

describe("the list's shape", () => {
  let database: FreshDatabase;
  // Moments of 1 to 5 posts, one moment of more posts than ANCHOR_SPACING and
  // one of exactly that many, so anchors land inside, on and next to ties.
  const sizes = [
    ...Array.from({ length: 400 }, (_, i) => 1 + ((i * 7) % 5)),
    ANCHOR_SPACING + 77,
    ...Array.from({ length: 300 }, (_, i) => 1 + (i % 3)),
    ANCHOR_SPACING,
    ...Array.from({ length: 200 }, () => 1),
  ];
  const publicPosts = sizes.reduce((sum, size) => sum + size, 0);

  beforeAll(async () => {
    database = await freshDatabase();
    const rows: ReturnType<typeof postRow>[] = [];
    sizes.forEach((size, moment) => {
      const date = minutesAgo(10 + moment);
      for (let i = 0; i < size; i++) rows.push(postRow(`p-${moment}-${i}`, date));
      // Drafts at some of the same moments, and scheduled posts: in no count.
      if (moment % 50 === 0) rows.push(postRow(`draft-${moment}`, date, 0));
    });
    rows.push(postRow("scheduled", minutesAgo(-60)), postRow("scheduled-later", minutesAgo(-120)));
    await insertPosts(database.connection.db, rows);
  }, 120_000);
  afterAll(() => database?.cleanup());

  it("counts the public posts and puts every anchor at the first post of its moment", async () => {
    const list = await wholeList(database.connection.db, now);
    const shape = await readListShape(database.connection, now);
    expect(list).toHaveLength(publicPosts);
    expect(shape.total).toBe(publicPosts);
    expect(shape.nextScheduled).toBe(minutesAgo(-60));
    expect(shape.anchors.length).toBeGreaterThanOrEqual(Math.floor(publicPosts / (ANCHOR_SPACING + 77)));
    expect(shape.anchors[0]).toEqual({ date: list[0]!.publishDate, before: 0 });
    for (const [k, anchor] of shape.anchors.entries()) {
      expect(list.findIndex((post) => post.publishDate <= anchor.date)).toBe(anchor.before);
      expect(list[anchor.before]!.publishDate).toBe(anchor.date);
      // At most ANCHOR_SPACING posts and the anchor's moment from one anchor to the next.
      const next = shape.anchors[k + 1]?.before ?? shape.total;
      const moment = list.filter((post) => post.publishDate === anchor.date).length;
      expect(next - anchor.before).toBeLessThanOrEqual(ANCHOR_SPACING + moment);
    }
  });

  it("gives an article the index it has in the list", async () => {
    const { connection } = database;
    const list = await wholeList(connection.db, now);
    const shape = await currentListShape(connection, now);
    const indexes = new Set([0, list.length - 1]);
    for (let i = 0; i < list.length; i += 37) indexes.add(i);
    for (const { before } of shape.anchors) for (const i of [before - 1, before, before + 1]) indexes.add(i);
    for (const i of indexes) {
      if (i < 0 || i >= list.length) continue;
      const found = await findPublicArticle(connection, list[i]!.slug, now);
      expect(found?.index, list[i]!.slug).toBe(i);
    }
  });

  it("reads every list page from its anchor, the same posts as counting from the top", async () => {
    const { connection } = database;
    const list = await wholeList(connection.db, now);
    const shape = await currentListShape(connection, now);
    for (let offset = 0; offset < list.length; offset += BLOG_PAGE_SIZE) {
      const page = await listPublicSummaries(connection.db, { limit: BLOG_PAGE_SIZE, offset, now, shape });
      expect(
        page.map((post) => post.slug),
        `offset ${offset}`,
      ).toEqual(list.slice(offset, offset + BLOG_PAGE_SIZE).map((post) => post.slug));
    }
    expect(await listPublicSummaries(connection.db, { limit: 12, offset: list.length, now, shape })).toEqual([]);
  });
});

describe("the shape a process keeps", () => {
  let database: FreshDatabase;
  let other: Connection;
  const dates = Array.from({ length: 30 }, (_, i) => minutesAgo(100 + i));

  beforeAll(async () => {
    database = await freshDatabase();
    await insertPosts(
      database.connection.db,
      dates.map((date, i) => postRow(`post-${i}`, date)),
    );
    other = anotherConnection(database);
  });
  afterAll(async () => {
    await other?.db.destroy();
    await database?.cleanup();
  });

  it("is kept while the content version holds", async () => {
    const first = await currentListShape(database.connection, now);
    expect(await currentListShape(database.connection, new Date(now.getTime() + 1000))).toBe(first);
  });

  it("is read again after another process writes: the count and an article's page follow", async () => {
    const { connection } = database;
    const before = await findPublicArticle(connection, "post-5", now);
    expect(before?.index).toBe(5);
    expect(pageOfIndex(before!.index)).toBe(1);
    expect((await currentListShape(connection, now)).total).toBe(30);

    // Another process publishes a page's worth of newer posts (a write of public content: it bumps the version).
    const newer = Array.from({ length: BLOG_PAGE_SIZE }, (_, i) => postRow(`newer-${i}`, minutesAgo(50 + i)));
    await changingContent(other.db, (trx) => trx.insertInto("posts").values(newer).execute());

    const after = await findPublicArticle(connection, "post-5", now);
    expect(after?.index).toBe(5 + BLOG_PAGE_SIZE);
    expect(pageOfIndex(after!.index)).toBe(2);
    const shape = await currentListShape(connection, now);
    expect(shape.total).toBe(30 + BLOG_PAGE_SIZE);
    const firstPage = await listPublicSummaries(connection.db, { limit: BLOG_PAGE_SIZE, offset: 0, now, shape });
    expect(firstPage.map((post) => post.slug)).toEqual(newer.map((post) => post.slug));

    // ... and deletes them again.
    await changingContent(other.db, (trx) =>
      trx
        .deleteFrom("posts")
        .where(
          "id",
          "in",
          newer.map((post) => post.id),
        )
        .execute(),
    );
    expect((await findPublicArticle(connection, "post-5", now))?.index).toBe(5);
    expect((await currentListShape(connection, now)).total).toBe(30);
  });

  it("is read again when a scheduled post comes due, with no write in between", async () => {
    const { connection } = database;
    const due = new Date(now.getTime() + 60_000);
    await changingContent(other.db, (trx) =>
      trx.insertInto("posts").values(postRow("scheduled", due.toISOString())).execute(),
    );
    const justBefore = new Date(due.getTime() - 1);
    expect((await currentListShape(connection, justBefore)).total).toBe(30);
    expect((await findPublicArticle(connection, "post-11", justBefore))?.index).toBe(11);
    expect(await findPublicArticle(connection, "scheduled", justBefore)).toBeUndefined();

    // Its moment comes: the same version, a longer list.
    expect((await currentListShape(connection, due)).total).toBe(31);
    expect((await findPublicArticle(connection, "post-11", due))?.index).toBe(12);
    expect((await findPublicArticle(connection, "scheduled", due))?.index).toBe(0);

    // A shape read later does not answer for a moment before its newest post.
    expect((await currentListShape(connection, justBefore)).total).toBe(30);
  });
});
