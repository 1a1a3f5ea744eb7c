import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { Migrator, sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST_SORTS, type PostSort } from "~/lib/admin-lists";
import {
  createPostgresDatabase,
  createTestDatabase,
  POSTGRES_ADMIN_URL,
  TEST_BACKEND,
} from "../../../tests/support/backend";
import { freshDatabase, type FreshDatabase } from "../../../tests/support/database";
import { generatedTitle, generatePosts, ONE_LINE_CONTENT } from "../../../tests/support/generate-posts";
import { resolveDatabase } from "../platform/config.server";
import { connect, migrateToLatest, type Db } from "../db/db.server";
import { migrations } from "../db/migrations.server";
import { getLogger } from "../platform/logger.server";
import { listAdminPosts } from "./posts.server";
import { fewMatches, SORTED_MATCHES_MAX, titleFilter, warnIfTitleSearchUnindexed } from "./title-search.server";

/**
 * The admin list's title filter (ADR 030) on the backend under test: whichever
 * way a page is read (the trigram index's matches sorted, the list's order
 * walked, or every title read for one or two characters), it answers what the
 * filter answered before, `lower(title) like`, in the list's order and with
 * the same count; the index follows every write; migration 009 indexes the
 * posts a database already has.
 */

const CHARACTERS = [..."aAbB %_\\\"'éÉ"];
const POSTS = 2_400;
const date = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();

/** Deterministic titles from CHARACTERS; 7 in 8 contain " Post " (more than SORTED_MATCHES_MAX). */
function titles(count: number): string[] {
  let seed = 7;
  const next = (n: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % n;
  const word = () => Array.from({ length: next(7) }, () => CHARACTERS[next(CHARACTERS.length)]).join("");
  return Array.from({ length: count }, (_, i) =>
    i === 1234 ? "Needle in the haystack" : `${word()}${i % 8 ? " Post " : ""}${word()}`,
  );
}

function row(i: number, title: string) {
  const id = `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
  return {
    id,
    title,
    slug: `post-${i}`,
    excerpt: "e",
    content: "c",
    content_html: "<p>c</p>",
    category: "",
    author: "a",
    // Five posts a minute: equal dates are ordered by id.
    publish_date: date(Math.floor(i / 5)),
    read_time: "1 min read",
    published: i % 2,
    header_image: null,
    created_at: date(0),
    updated_at: date(0),
  };
}

async function insertPosts(db: Db, list: string[], from = 0) {
  for (let start = 0; start < list.length; start += 200) {
    const batch = list.slice(start, start + 200).map((title, j) => row(from + start + j, title));
    await db.insertInto("posts").values(batch).execute();
  }
}

/** The filter as it was before the index (ADR 026): the meaning every plan must keep. */
async function before(db: Db, q: string, sort: PostSort, limit: number, offset: number) {
  const like = sql`lower(title) like lower(${`%${q.replace(/[\\%_]/g, "\\$&")}%`}) escape '\\'`;
  const order = {
    "-publishDate": sql`publish_date desc, id asc`,
    publishDate: sql`publish_date asc, id desc`,
    title: sql`lower(title) asc, id asc`,
    "-title": sql`lower(title) desc, id desc`,
  }[sort];
  const ids = await sql<{
    id: string;
  }>`select id from posts where ${like} order by ${order} limit ${limit} offset ${offset}`.execute(db);
  const count = await sql<{ n: number | string }>`select count(*) as n from posts where ${like}`.execute(db);
  return { ids: ids.rows.map((r) => r.id), total: Number(count.rows[0]!.n) };
}

async function after(db: Db, q: string, sort: PostSort, limit: number, offset: number) {
  const page = await listAdminPosts(db, { q, sort, limit, offset });
  return { ids: page.posts.map((post) => post.id), total: page.total };
}

describe("the title filter", () => {
  let database: FreshDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await freshDatabase();
    db = database.connection.db;
    await insertPosts(db, titles(POSTS));
    if (TEST_BACKEND === "postgres") await sql`analyze posts`.execute(db);
  }, 60_000);
  afterAll(() => database?.cleanup());

  it("answers what lower(title) like answered, in order and with its count, whatever the filter and the page", async () => {
    // Sure to take each plan: a common text (the order walked), rare ones (the index's matches sorted), short ones.
    expect((await before(db, "post", "title", 1, 0)).total).toBeGreaterThan(SORTED_MATCHES_MAX);
    const chosen = [
      "post",
      "POST",
      "t P",
      "needle",
      "Post é",
      "a",
      "%",
      "_",
      "\\",
      "é",
      '"',
      "'",
      "ab",
      'a"',
      "%_",
      "É P",
    ];
    const text = fc.oneof(
      fc.constantFrom(...chosen),
      fc.string({ unit: fc.constantFrom(...CHARACTERS, ..."post"), minLength: 1, maxLength: 6 }),
    );
    await fc.assert(
      fc.asyncProperty(
        text,
        fc.constantFrom(...POST_SORTS),
        fc.constantFrom(1, 7, 50, 100),
        fc.constantFrom(0, 3, 50, 999, 2_050),
        async (q, sort, limit, offset) => {
          expect(await after(db, q, sort, limit, offset)).toEqual(await before(db, q, sort, limit, offset));
        },
      ),
      { numRuns: 300, examples: chosen.map((q) => [q, "-publishDate", 50, 0]) },
    );
  }, 60_000);

  it("follows every write: a new post, a renamed one, a new publish date, a deleted one", async () => {
    const total = async (q: string) => (await listAdminPosts(db, { q, sort: "title", limit: 1, offset: 0 })).total;
    // One post a page, so the page's choice (not only the rows' order) rests on the sort keys.
    const titlesOf = async (q: string) => {
      const pages = [0, 1].map((offset) => listAdminPosts(db, { q, sort: "-publishDate", limit: 1, offset }));
      return (await Promise.all(pages)).flatMap((page) => page.posts.map((post) => post.title));
    };
    const bySlug = (slug: string) => db.updateTable("posts").where("slug", "=", slug);
    await insertPosts(db, ["Fresh From The Oven", "Kite one", "Kite two"], POSTS);
    expect(await total("from the oven")).toBe(1);
    await bySlug(`post-${POSTS}`).set({ title: 'Renamed: "Quoted" 100% _done_' }).execute();
    expect(await total("from the oven")).toBe(0);
    expect(await total('"quoted" 100% _DONE')).toBe(1);
    // A write that leaves the title and date alone leaves the post where it was.
    await bySlug(`post-${POSTS}`).set({ excerpt: "changed" }).execute();
    expect(await total('"quoted" 100% _DONE')).toBe(1);
    // The sort keys follow too: both kites have one date (ordered by id) until "Kite two" gets the newest.
    expect(await titlesOf("kite ")).toEqual(["Kite one", "Kite two"]);
    await bySlug(`post-${POSTS + 2}`)
      .set({ publish_date: date(100_000) })
      .execute();
    expect(await titlesOf("kite ")).toEqual(["Kite two", "Kite one"]);
    await db
      .deleteFrom("posts")
      .where("slug", "in", [`post-${POSTS}`, `post-${POSTS + 1}`])
      .execute();
    expect(await total('"quoted" 100% _DONE')).toBe(0);
    expect(await titlesOf("kite ")).toEqual(["Kite two"]);
    for (const q of ["kite", "post", "needle in", "oven", "%"]) {
      for (const sort of POST_SORTS) expect(await after(db, q, sort, 50, 0)).toEqual(await before(db, q, sort, 50, 0));
    }
  });
});

describe("with 10,000 posts", () => {
  let database: FreshDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await freshDatabase();
    db = database.connection.db;
    await generatePosts(database.url, 10_000, { content: ONE_LINE_CONTENT });
    if (TEST_BACKEND === "postgres") await sql`analyze posts`.execute(db);
  }, 60_000);
  afterAll(() => database?.cleanup());

  const list = (q: string, offset = 0) => listAdminPosts(db, { q, sort: "-publishDate", limit: 50, offset });

  it("finds one post, a few, or nearly all of them, each page in order", async () => {
    expect(await list("NEEDLE in")).toMatchObject({ total: 1, posts: [{ title: "Needle in the haystack" }] });
    const discounts = await list("100% off");
    expect(discounts.total).toBe(10);
    expect(discounts.posts.map((post) => post.title)).toEqual(
      [9007, 8007, 7007, 6007, 5007, 4007, 3007, 2007, 1007, 7].map(generatedTitle),
    );
    // Nearly every title: more than SORTED_MATCHES_MAX, so SQLite walks the list's order.
    const generated = await list("generated post", 9_000);
    expect(generated.total).toBe(10_000 - 1 - 10);
    // Newest first without posts 4242, 9007, 8007, ...: the 9,001st match is post 990.
    expect(generated.posts[0]!.title).toBe(generatedTitle(990));
    expect(generated.posts).toHaveLength(50);
  });

  it.runIf(TEST_BACKEND === "sqlite")(
    "SQLite: a text of three characters or more is looked up in the trigram index, its sort keys beside it",
    async () => {
      const filter = await titleFilter(db, "needle");
      expect(filter.few).toBe(1);
      const query = fewMatches(db, filter).select("id").compile();
      const sqlite = (database.connection as Extract<FreshDatabase["connection"], { kind: "sqlite" }>).sqlite;
      const plan = sqlite
        .prepare<unknown[], { detail: string }>(`explain query plan ${query.sql}`)
        .all(...query.parameters)
        .map((step) => step.detail);
      // The matches come from the trigram index and their sort keys from the table beside it, by rowid:
      // no post's row is read and no order is walked.
      expect(plan).toContain("SEARCH posts_title_search_keys USING INTEGER PRIMARY KEY (rowid=?)");
      expect(plan.some((step) => /^SCAN posts_title_search VIRTUAL TABLE INDEX \d+:M/.test(step))).toBe(true);
      expect(plan.filter((step) => /^(?:SCAN|SEARCH) /.test(step))).toHaveLength(2);
    },
  );

  it.runIf(TEST_BACKEND === "postgres")("PostgreSQL: a rare text is looked up in the trigram index", async () => {
    const filter = await titleFilter(db, "needle");
    expect(filter.few).toBe(1);
    const query = fewMatches(db, filter).select("id").orderBy("publish_date", "desc").limit(50).compile();
    const pool = (database.connection as Extract<FreshDatabase["connection"], { kind: "postgres" }>).pool;
    const { rows } = await pool.query<{ "QUERY PLAN": string }>({
      text: `explain ${query.sql}`,
      values: [...query.parameters],
    });
    expect(rows.map((line) => line["QUERY PLAN"]).join("\n")).toMatch(/Bitmap Index Scan on posts_title_trgm_idx/);
  });

  it("counts a common text's matches only as far as SORTED_MATCHES_MAX, then reads the list as before", async () => {
    expect((await titleFilter(db, "generated post")).few).toBeUndefined();
    expect((await titleFilter(db, "100% off")).few).toBe(10);
    // One or two characters: every title is tested, and a rare one is still sorted from its matches.
    expect((await titleFilter(db, "%")).few).toBe(10);
    expect((await titleFilter(db, "ne")).few).toBeUndefined();
  });
});

describe("migration 009", () => {
  it("indexes the titles of the posts a database already has, then every new one", async () => {
    const created = await createTestDatabase();
    const connection = connect(resolveDatabase(created.url, process.cwd()));
    try {
      const migrator = new Migrator({
        db: connection.db,
        provider: { getMigrations: () => Promise.resolve(migrations) },
        allowUnorderedMigrations: true,
      });
      const { error } = await migrator.migrateTo("008_posts_order_index");
      expect(error).toBeUndefined();
      await insertPosts(connection.db, ["An Old Post About Kites", "Another old one", "kites, again"]);
      // 009 runs first over the posts already there; later migrations may follow it.
      expect((await migrateToLatest(connection.db))[0]).toBe("009_title_search");
      const found = await listAdminPosts(connection.db, { q: "KITES", sort: "title", limit: 50, offset: 0 });
      expect(found.posts.map((post) => post.title)).toEqual(["An Old Post About Kites", "kites, again"]);
      expect(found.total).toBe(2);
      await insertPosts(connection.db, ["New kites"], 3);
      expect((await listAdminPosts(connection.db, { q: "kites", sort: "title", limit: 50, offset: 0 })).total).toBe(3);
    } finally {
      await connection.db.destroy();
      await created.drop();
    }
  });

  it.runIf(TEST_BACKEND === "postgres")(
    "PostgreSQL: creates pg_trgm and the index, and the start says nothing",
    async () => {
      const database = await freshDatabase();
      try {
        const { rows } = await sql<{
          found: string | null;
        }>`select to_regclass('posts_title_trgm_idx')::text as found`.execute(database.connection.db);
        expect(rows[0]!.found).toBe("posts_title_trgm_idx");
        const warn = vi.spyOn(getLogger(), "warn");
        await warnIfTitleSearchUnindexed(database.connection.db);
        expect(warn).not.toHaveBeenCalled();
        warn.mockRestore();
      } finally {
        await database.cleanup();
      }
    },
  );

  it.runIf(TEST_BACKEND === "postgres")(
    "PostgreSQL: a user who may not create pg_trgm still migrates; the filter reads every title and the start says how to add the index",
    async () => {
      const role = `ojai_t_user_${randomBytes(4).toString("hex")}`;
      const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await admin.connect();
      await admin.query(`create role "${role}" login`);
      const created = await createPostgresDatabase();
      const asOwner = new pg.Client({ connectionString: created.url });
      // Tables in the public schema, but no CREATE on the database, which a trusted extension needs.
      await asOwner.connect();
      await asOwner.query(`grant create, usage on schema public to "${role}"`);
      await asOwner.end();
      const url = new URL(created.url);
      url.username = role;
      const connection = connect({ kind: "postgres", url: url.toString() });
      try {
        expect(await migrateToLatest(connection.db)).toContain("009_title_search");
        const { rows } = await sql<{
          found: string | null;
        }>`select to_regclass('posts_title_trgm_idx')::text as found`.execute(connection.db);
        expect(rows[0]!.found).toBeNull();
        await insertPosts(connection.db, ["Kites in the wind", "Boats"]);
        const found = await listAdminPosts(connection.db, { q: "KITES IN", sort: "title", limit: 50, offset: 0 });
        expect(found).toMatchObject({ total: 1, posts: [{ title: "Kites in the wind" }] });
        const warn = vi.spyOn(getLogger(), "warn").mockImplementation(() => {});
        await warnIfTitleSearchUnindexed(connection.db);
        expect(warn).toHaveBeenCalledOnce();
        expect(String(warn.mock.calls[0]![0])).toContain(
          "CREATE INDEX posts_title_trgm_idx ON posts USING gin (lower(title) gin_trgm_ops)",
        );
        warn.mockRestore();
      } finally {
        await connection.db.destroy();
        await created.drop();
        await admin.query(`drop role "${role}"`);
        await admin.end();
      }
    },
  );
});
