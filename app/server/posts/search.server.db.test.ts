import { randomUUID } from "node:crypto";
import { Migrator } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_COUNTED_RESULTS, parseSearchQuery, SEARCH_PAGE_SIZE, type Segment } from "~/lib/search-query";
import { createTestDatabase, TEST_BACKEND } from "../../../tests/support/backend";
import { freshDatabase, type FreshDatabase } from "../../../tests/support/database";
import { generatePosts } from "../../../tests/support/generate-posts";
import { resolveDatabase } from "../platform/config.server";
import { connect, migrateToLatest, type Connection, type Db } from "../db/db.server";
import { migrations } from "../db/migrations.server";
import { measureEventLoopHold } from "../platform/event-loop.server";
import { SEARCH_QUEUE, SearchBusyError, searchPosts } from "./search.server";

/**
 * The blog search (ADR 042) on the backend under test: what matches, in what
 * order, only public posts, the index following every write, hostile queries
 * harmless, highlighting that adds no markup; and with 10,000 posts no query
 * is slow.
 */

const NOW = new Date("2026-06-01T12:00:00.000Z");
const minutesAgo = (n: number) => new Date(NOW.getTime() - n * 60_000).toISOString();

function row(fields: Partial<Record<string, unknown>> & { slug: string }) {
  const date = (fields.publish_date as string | undefined) ?? minutesAgo(60);
  return {
    id: randomUUID(),
    title: fields.slug,
    excerpt: "An excerpt.",
    content: "Nothing in particular.",
    content_html: "<p>x</p>",
    category: "",
    author: "a",
    publish_date: date,
    read_time: "1 min read",
    published: 1,
    header_image: null,
    created_at: date,
    updated_at: date,
    ...fields,
  };
}

const search = async (connection: Connection, q: string, page = 1, now = NOW) => {
  const query = parseSearchQuery(q);
  if (query.kind !== "words") throw new Error(`not a search: ${q}`);
  return searchPosts(connection, query, { page, now });
};
const slugs = async (connection: Connection, q: string, now = NOW) =>
  (await search(connection, q, 1, now)).hits.map((hit) => hit.slug);
const marked = (segments: Segment[]) => segments.filter((s) => s.mark).map((s) => s.text);

describe(`search (${TEST_BACKEND})`, () => {
  let database: FreshDatabase;
  let connection: Connection;
  let db: Db;

  beforeAll(async () => {
    database = await freshDatabase();
    connection = database.connection;
    db = connection.db;
    await db
      .insertInto("posts")
      .values([
        row({ slug: "in-title", title: "Kubernetes upgrades explained", publish_date: minutesAgo(300) }),
        row({ slug: "in-body", title: "Weekly notes", content: "We spent the week on kubernetes and coffee." }),
        row({ slug: "in-excerpt", title: "Another post", excerpt: "Why Kubernetes?", publish_date: minutesAgo(200) }),
        row({ slug: "in-category", title: "Tooling", category: "Kubernetes" }),
        row({ slug: "a-draft", title: "Kubernetes draft", published: 0 }),
        row({ slug: "scheduled", title: "Kubernetes later", publish_date: minutesAgo(-30) }),
        row({
          slug: "hostile",
          title: "<script>alert(1)</script> \uE000 marker \uE001 text",
          content: 'Body with <b>tags</b> and \uE000 NEAR( "quotes" ^caret col:on nul',
        }),
        row({ slug: "accents", title: "Café culture", content: "Crème brûlée." }),
      ])
      .execute();
  });
  afterAll(() => database?.cleanup());

  it("finds the word in a title, excerpt, category or body; titles rank first", async () => {
    const found = await slugs(connection, "kubernetes");
    expect(found[0]).toBe("in-title");
    expect(found.sort()).toEqual(["in-body", "in-category", "in-excerpt", "in-title"]);
  });

  it("needs every word; ignores case, spacing and punctuation between words", async () => {
    expect(await slugs(connection, "KUBERNETES,   coffee!")).toEqual(["in-body"]);
    expect(await slugs(connection, "kubernetes tea")).toEqual([]);
  });

  it("matches the last word as a prefix from three characters on", async () => {
    expect((await slugs(connection, "kub")).length).toBe(4);
    expect(await slugs(connection, "ku")).toEqual([]);
    expect(await slugs(connection, "weekly no")).toEqual([]);
    expect(await slugs(connection, "weekly not")).toEqual(["in-body"]);
  });

  it("leaves out drafts and scheduled posts until their moment, without a re-index", async () => {
    expect(await slugs(connection, "later")).toEqual([]);
    expect(await slugs(connection, "later", new Date(NOW.getTime() + 3_600_000))).toEqual(["scheduled"]);
    expect(await slugs(connection, "draft")).toEqual([]);
  });

  it("marks the matched words in the title and the snippet, as text", async () => {
    const [hit] = (await search(connection, "kubernetes coffee")).hits;
    expect(marked(hit!.snippet)).toEqual(["kubernetes", "coffee"]);
    const title = (await search(connection, "kubernetes upgr")).hits[0]!;
    expect(marked(title.title)).toEqual(["Kubernetes", "upgrades"]);
  });

  it("takes markup and the marker characters in a post as text, and query syntax as words", async () => {
    for (const q of ['text "marker', "NEAR( marker )", "marker*", "^marker", "col:on marker", "marker\u0000"]) {
      const { hits } = await search(connection, q);
      expect(
        hits.map((hit) => hit.slug),
        q,
      ).toEqual(["hostile"]);
      const title = hits[0]!.title.map((s) => s.text).join("");
      expect(title).toContain("<script>alert(1)</script>");
      // The post's own markers are dropped from the snippet and never make a mark.
      expect(hits[0]!.snippet.map((s) => s.text).join("")).not.toMatch(/[\uE000\uE001]/);
    }
    expect(marked((await search(connection, "text")).hits[0]!.title)).toEqual(["text"]);
    // PostgreSQL's parser skips what looks like an HTML tag (<script>…</script>); SQLite indexes its words.
    expect(await slugs(connection, '"')).toEqual([]);
    expect(await slugs(connection, "NEAR")).toEqual(["hostile"]);
  });

  it("follows inserts, updates and deletes of posts", async () => {
    await db
      .insertInto("posts")
      .values(row({ slug: "fresh", title: "Zeppelin" }))
      .execute();
    expect(await slugs(connection, "zeppelin")).toEqual(["fresh"]);
    await db
      .updateTable("posts")
      .set({ title: "Airship", content: "zeppelin-free" })
      .where("slug", "=", "fresh")
      .execute();
    expect(await slugs(connection, "airship")).toEqual(["fresh"]);
    expect(await slugs(connection, "zeppelin")).toEqual(["fresh"]);
    await db.updateTable("posts").set({ content: "plain" }).where("slug", "=", "fresh").execute();
    expect(await slugs(connection, "zeppelin")).toEqual([]);
    await db.updateTable("posts").set({ published: 0 }).where("slug", "=", "fresh").execute();
    expect(await slugs(connection, "airship")).toEqual([]);
    await db.deleteFrom("posts").where("slug", "=", "fresh").execute();
    expect(await slugs(connection, "airship")).toEqual([]);
  });
});

describe(`search with 10,000 posts (${TEST_BACKEND})`, () => {
  let database: FreshDatabase;
  let connection: Connection;

  beforeAll(async () => {
    database = await freshDatabase();
    connection = database.connection;
    await generatePosts(database.url, 10_000);
  }, 120_000);
  afterAll(() => database?.cleanup());

  const worst = [
    "lorem", // in every post: 5,000 public matches ranked
    "l",
    "lo",
    "lor", // a prefix of the commonest word
    "lorem ipsum dolor sit amet generated post excerpt of a", // ten words in every post: the slowest to rank
    "!!! ??? ...",
    "lorem ".repeat(33).trim(), // 197 characters, one word
    "a".repeat(200),
    "needle",
  ];

  it("holds the event loop less than 20 ms at a stretch while it runs the worst queries (ADR 048)", async () => {
    // The first search starts SQLite's reader thread: measured too, as a visitor's first search after a quiet spell.
    for (const [q, page] of [
      ...worst.map((q) => [q, 1] as const),
      ["lorem", MAX_COUNTED_RESULTS / SEARCH_PAGE_SIZE] as const,
    ]) {
      const hold = measureEventLoopHold();
      const { hits } = await search(connection, q, page);
      const heldMs = hold.stop();
      expect(heldMs, `${q} (page ${page}): the loop was held ${heldMs.toFixed(1)} ms`).toBeLessThan(20);
      expect(hits.length).toBeLessThanOrEqual(SEARCH_PAGE_SIZE);
    }
  }, 60_000);

  // How long they take is a figure of `npm run bench -- --modes search`, not a
  // test: a wall-clock bound fails on a loaded machine (a few to a few tens of
  // milliseconds each on a quiet one).
  it("answers the worst queries, counting up to the bound", async () => {
    for (const q of worst) {
      const { hits, counted } = await search(connection, q);
      expect(hits.length).toBeLessThanOrEqual(SEARCH_PAGE_SIZE);
      expect(counted).toBeLessThanOrEqual(MAX_COUNTED_RESULTS + 1);
    }
    expect((await search(connection, "lorem")).counted).toBe(MAX_COUNTED_RESULTS + 1);
    // More searches at once than the queue holds: the rest are refused at once, not queued.
    const flood = await Promise.allSettled(Array.from({ length: SEARCH_QUEUE + 8 }, () => search(connection, "lorem")));
    const refused = flood.filter((result) => result.status === "rejected");
    expect(refused).toHaveLength(8);
    for (const result of refused) expect(result.reason).toBeInstanceOf(SearchBusyError);
    // Pages of equally ranked posts follow one order: none on two pages.
    const [one, two] = await Promise.all([search(connection, "lorem", 1), search(connection, "lorem", 2)]);
    const onBoth = one.hits.filter((hit) => two.hits.some((other) => other.slug === hit.slug));
    expect(onBoth).toEqual([]);
    // The last page of a common word is served (its cost is the bench's figure).
    expect((await search(connection, "lorem", MAX_COUNTED_RESULTS / SEARCH_PAGE_SIZE)).hits).toHaveLength(
      SEARCH_PAGE_SIZE,
    );
    // Post 4242 is a draft (even); the generated titles rank the title match first.
    expect(await slugs(connection, "needle")).toEqual([]);
    expect((await slugs(connection, "generated post 00043"))[0]).toBe("generated-post-00043");
  }, 60_000);
});

describe(`migration 017 (${TEST_BACKEND})`, () => {
  it('indexes the posts already there and renames a post called "search" to a free slug', async () => {
    const created = await createTestDatabase();
    const connection = connect(resolveDatabase(created.url, process.cwd()));
    try {
      const migrator = new Migrator({
        db: connection.db,
        provider: { getMigrations: () => Promise.resolve(migrations) },
        allowUnorderedMigrations: true,
      });
      expect((await migrator.migrateTo("015_post_seo")).error).toBeUndefined();
      await connection.db
        .insertInto("posts")
        .values([
          row({ slug: "search", title: "How we search for bugs" }),
          row({ slug: "search-post", title: "Another search post" }),
        ])
        .execute();
      expect(await migrateToLatest(connection.db)).toContain("017_post_search");
      const slugsNow = await connection.db.selectFrom("posts").select("slug").orderBy("slug").execute();
      expect(slugsNow.map((post) => post.slug)).toEqual(["search-post", "search-post-2"]);
      expect(await slugs(connection, "bugs")).toEqual(["search-post-2"]);
    } finally {
      await connection.db.destroy();
      await created.drop();
    }
  });
});
