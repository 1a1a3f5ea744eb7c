import fs from "node:fs";
import path from "node:path";
import { Migrator, sql, type Kysely } from "kysely";
import { format, resolveConfig } from "prettier";
import { afterAll, describe, expect, it } from "vitest";
import { createTestDatabase, TEST_BACKEND } from "../../../tests/support/backend";
import { CLIENT_NETWORK_CASES } from "../../../tests/support/client-networks";
import { resolveDatabase } from "../platform/config.server";
import { connect, migrateToLatest, type Connection } from "./db.server";
import { migrations } from "./migrations.server";

/**
 * A shipped migration never changes in effect (ADR 050). On the backend under
 * test, a database migrated to the last migration that shipped before the
 * migrations were frozen into files (019) has the schema (tables, columns,
 * constraints, indexes, triggers, functions) and the recorded migration names
 * that the migrations as they shipped produced, and their data fixes give the
 * same rows: all recorded in shipped-schema/<backend>.json, generated from
 * those migrations. A new migration adds to the schema past 019 and leaves
 * this file alone.
 */

const SHIPPED = "019_preview_links";
const SNAPSHOT = path.join(import.meta.dirname, "shipped-schema", `${TEST_BACKEND}.json`);

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function newDatabase(): Promise<Connection> {
  const created = await createTestDatabase();
  const connection = connect(resolveDatabase(created.url, process.cwd()));
  cleanups.push(async () => {
    await connection.db.destroy();
    await created.drop();
  });
  return connection;
}

async function migrateTo(connection: Connection, name: string): Promise<void> {
  const migrator = new Migrator({
    db: connection.db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    allowUnorderedMigrations: true,
  });
  const { error } = await migrator.migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(`migration to ${name} failed`, { cause: error });
}

type Rows = Record<string, unknown>[];
const rows = async (db: Kysely<any>, query: ReturnType<typeof sql>): Promise<Rows> =>
  (await query.execute(db)).rows as Rows;

/** Every object of the schema, in a stable order, as the database itself describes it. */
async function schemaOf(connection: Connection): Promise<Record<string, Rows>> {
  const db = connection.db as Kysely<any>;
  if (connection.kind === "sqlite") {
    return {
      // The exact statement of each table, index, trigger and virtual table (FTS5's own tables too).
      objects: await rows(
        db,
        sql`select type, name, tbl_name, sql from sqlite_master where name not like 'sqlite_%' order by type, name`,
      ),
    };
  }
  return {
    columns: await rows(
      db,
      sql`select table_name, column_name, data_type, character_maximum_length, is_nullable, column_default
        from information_schema.columns where table_schema = current_schema()
        order by table_name, ordinal_position`,
    ),
    constraints: await rows(
      db,
      sql`select t.relname as table_name, c.conname, pg_get_constraintdef(c.oid) as definition
        from pg_constraint c join pg_class t on t.oid = c.conrelid
        where t.relnamespace = current_schema()::regnamespace order by t.relname, c.conname`,
    ),
    indexes: await rows(
      db,
      sql`select tablename, indexname, indexdef from pg_indexes
        where schemaname = current_schema() order by tablename, indexname`,
    ),
    triggers: await rows(
      db,
      sql`select t.tgname, pg_get_triggerdef(t.oid) as definition
        from pg_trigger t join pg_class c on c.oid = t.tgrelid
        where not t.tgisinternal and c.relnamespace = current_schema()::regnamespace order by t.tgname`,
    ),
    // Our own functions, not those an extension (pg_trgm) brings.
    functions: await rows(
      db,
      sql`select p.proname, pg_get_functiondef(p.oid) as definition from pg_proc p
        where p.pronamespace = current_schema()::regnamespace
          and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
        order by p.proname`,
    ),
    extensions: await rows(db, sql`select extname from pg_extension order by extname`),
  };
}

const recordedMigrations = async (connection: Connection) =>
  (await rows(connection.db as Kysely<any>, sql`select name from kysely_migration order by name`)).map(
    (row) => row.name as string,
  );

// Images and posts stored before migration 009, whose data fixes (title index,
// image references, category slugs, reserved slugs) then run over them.
const A = "a".repeat(64);
const B = "b".repeat(64);
const C = "c".repeat(64);
const DATE = "2026-01-01T00:00:00.000Z";
function oldPost(id: number, fields: { slug: string; category: string; header_image?: string; content: string }) {
  return {
    id: `00000000-0000-4000-8000-00000000000${id}`,
    title: `Post ${id}`,
    excerpt: "e",
    content_html: "<p>c</p>",
    author: "a",
    publish_date: DATE,
    read_time: "1 min read",
    published: 1,
    header_image: null,
    created_at: DATE,
    updated_at: DATE,
    ...fields,
  };
}

async function seedBefore009(db: Kysely<any>): Promise<void> {
  for (const id of [A, B]) {
    await db
      .insertInto("images")
      .values({
        id,
        source_format: "png",
        width: 320,
        height: 200,
        content_type: "image/png",
        byte_size: 3,
        bytes: Buffer.from([1, 2, 3]),
        created_at: DATE,
      })
      .execute();
  }
  await db
    .insertInto("posts")
    .values([
      oldPost(1, {
        slug: "search",
        category: "Web Design",
        header_image: `/images/${A}-320.webp`,
        content: `![b](/images/${B}-640.webp) ![c](/images/${C}-320.webp)`,
      }),
      oldPost(2, { slug: "search-post", category: "Cloud & Ops!", content: "plain" }),
      oldPost(3, { slug: "hello", category: "", content: `![b](/images/${B}-320.webp)` }),
    ])
    .execute();
}

async function dataOf(connection: Connection): Promise<Record<string, Rows>> {
  const db = connection.db as Kysely<any>;
  return {
    posts: await rows(db, sql`select id, slug, category, category_slug from posts order by id`),
    image_references: await rows(db, sql`select post_id, image_id from image_references order by post_id, image_id`),
    content_version: await rows(db, sql`select id, version from content_version`),
  };
}

/** Prettier's JSON, so `prettier --check` accepts the snapshot as written. */
async function asJson(value: unknown): Promise<string> {
  const options = await resolveConfig(SNAPSHOT);
  return format(JSON.stringify(value), { ...options, parser: "json" });
}

describe("the migrations' files", () => {
  it("are one a migration, in order, each named as Kysely records its migration", async () => {
    const files = fs
      .readdirSync(path.join(import.meta.dirname, "migrations"))
      .map((file) => file.replace(/\.server\.ts$/, ""))
      .sort();
    expect(Object.keys(migrations)).toEqual(files);
    for (const name of files) expect(migrations[name]).toBe(await import(`./migrations/${name}.server.ts`));
  });
});

describe(`the shipped migrations (${TEST_BACKEND})`, () => {
  let shippedSchema: Record<string, Rows> | undefined;

  it("give a database with posts from before 009 the recorded schema, migration names and data fixes", async () => {
    const connection = await newDatabase();
    await migrateTo(connection, "008_posts_order_index");
    await seedBefore009(connection.db as Kysely<any>);
    await migrateTo(connection, SHIPPED);
    shippedSchema = await schemaOf(connection);
    const snapshot = {
      migrations: await recordedMigrations(connection),
      schema: shippedSchema,
      data: await dataOf(connection),
    };
    await expect(await asJson(snapshot)).toMatchFileSnapshot(SNAPSHOT);
  });

  it("give a new, empty database the same schema", async () => {
    const connection = await newDatabase();
    await migrateTo(connection, SHIPPED);
    expect(shippedSchema).toBeDefined();
    expect(await schemaOf(connection)).toEqual(shippedSchema);
  });

  it("leave nothing pending in a database the shipped migrations brought to 019", async () => {
    const recorded = (JSON.parse(fs.readFileSync(SNAPSHOT, "utf8")) as { migrations: string[] }).migrations;
    const connection = await newDatabase();
    await migrateTo(connection, SHIPPED);
    // What they left: their schema (above) and, in Kysely's table, the names they recorded.
    const db = connection.db as Kysely<any>;
    await db.deleteFrom("kysely_migration").execute();
    await db
      .insertInto("kysely_migration")
      .values(recorded.map((name) => ({ name, timestamp: DATE })))
      .execute();
    const later = Object.keys(migrations)
      .sort()
      .filter((name) => name > SHIPPED);
    expect(await migrateToLatest(connection.db)).toEqual(later);
  });
});

describe(`migration 024 (${TEST_BACKEND})`, () => {
  it("deletes every throttle counter stored under its old, raw key, and adds the table of the throttles' secret", async () => {
    const connection = await newDatabase();
    await migrateTo(connection, "023_analytics");
    const db = connection.db as Kysely<any>;
    await db
      .insertInto("rate_limits")
      .values([
        { key: "login-address:203.0.113.7", points: 5, expire: Date.now() + 600_000 },
        { key: "login-account:owner@example.com", points: 2, expire: Date.now() - 1 },
      ])
      .execute();
    await migrateToLatest(connection.db);
    expect(await db.selectFrom("rate_limits").selectAll().execute()).toEqual([]);
    await db
      .insertInto("throttle_secrets")
      .values({ name: "n", secret: "ab".repeat(32) })
      .execute();
    await expect(
      db
        .insertInto("throttle_secrets")
        .values({ name: "n", secret: "cd".repeat(32) })
        .execute(),
    ).rejects.toThrow();
  });
});

describe(`migration 025 (${TEST_BACKEND})`, () => {
  // What fits the columns (varchar(64)): the rest was never stored.
  const CASES = CLIENT_NETWORK_CASES.filter(([stored]) => stored.length <= 64);
  const ADMIN = "00000000-0000-4000-8000-0000000000a1";
  const auditRow = (n: number, fields: Record<string, unknown>) => ({
    // Ids sort in the order made, as timeOrderedId's do; 1,200 rows run through three batches.
    id: `00000000-0000-7000-8000-${String(n).padStart(12, "0")}`,
    created_at: DATE,
    action: "post-updated",
    actor_id: null,
    actor_email: null,
    target: null,
    client_address: null,
    user_agent: null,
    ...fields,
  });

  it("writes every stored client address as its network, and forgets the e-mails strangers tried", async () => {
    const connection = await newDatabase();
    await migrateTo(connection, "023_analytics");
    const db = connection.db as Kysely<any>;
    await db
      .insertInto("admin_users")
      .values({ id: ADMIN, email: "owner@example.com", password_hash: "x", created_at: DATE, updated_at: DATE })
      .execute();
    await db
      .insertInto("sessions")
      .values(
        CASES.map(([stored], i) => ({
          id: String(i).padStart(64, "0"),
          user_id: ADMIN,
          created_at: DATE,
          expires_at: DATE,
          ip_address: stored,
        })),
      )
      .execute();
    const audit = [
      ...CASES.map(([stored], i) => auditRow(i, { client_address: stored })),
      auditRow(100, { action: "sign-in-failed", actor_email: "stranger@example.net", client_address: "203.0.113.9" }),
      auditRow(101, { action: "sign-in-failed", actor_email: " Owner@Example.com", client_address: "203.0.113.9" }),
      auditRow(102, { action: "sign-in-code-failed", actor_email: "owner@example.com" }),
      auditRow(103, { action: "sign-in", actor_id: ADMIN, actor_email: "owner@example.com" }),
      auditRow(104, { action: "admin-invited", actor_id: ADMIN, actor_email: "owner@example.com", target: "new@x.io" }),
      ...Array.from({ length: 1200 }, (_, i) =>
        auditRow(1000 + i, { client_address: `198.51.${i % 3}.${i % 250}`, user_agent: "bulk" }),
      ),
    ];
    for (let i = 0; i < audit.length; i += 100)
      await db
        .insertInto("audit_log")
        .values(audit.slice(i, i + 100))
        .execute();

    await migrateTo(connection, "025_client_networks");

    const sessions = await db.selectFrom("sessions").select(["id", "ip_address"]).orderBy("id").execute();
    expect(sessions.map((row) => row.ip_address)).toEqual(CASES.map(([, network]) => network));
    const entries = await db.selectFrom("audit_log").selectAll().orderBy("id").execute();
    expect(entries.slice(0, CASES.length).map((row) => row.client_address)).toEqual(
      CASES.map(([, network]) => network),
    );
    const byTarget = (n: number) => entries.find((row) => row.id === auditRow(n, {}).id)!;
    expect(byTarget(100)).toMatchObject({ actor_email: null, client_address: "203.0.113.0/24" });
    expect(byTarget(101).actor_email).toBe("owner@example.com");
    expect(byTarget(102).actor_email).toBe("owner@example.com");
    expect(byTarget(103).actor_email).toBe("owner@example.com");
    expect(byTarget(104)).toMatchObject({ actor_email: "owner@example.com", target: "new@x.io" });
    const bulk = entries.filter((row) => row.user_agent === "bulk");
    expect(bulk).toHaveLength(1200);
    expect(new Set(bulk.map((row) => row.client_address))).toEqual(
      new Set(["198.51.0.0/24", "198.51.1.0/24", "198.51.2.0/24"]),
    );
    // No full address is left anywhere in the two tables.
    const text = JSON.stringify([sessions, entries]);
    expect(text).not.toMatch(/203\.0\.113\.9\b|198\.51\.\d\.[1-9]\d*\b|2001:db8:1:2/);
  });
});

describe(`migration 027 (${TEST_BACKEND})`, () => {
  const ADMIN = "00000000-0000-4000-8000-0000000000a1";
  const POST = "00000000-0000-4000-8000-000000000001";
  const id = (n: number) => `00000000-0000-4000-8000-0000000001${String(n).padStart(2, "0")}`;
  const fields = { slug: "hello", category: "Ops", author: "Ann", readTime: "1 min read", published: true };
  const OLD_TABLES = [
    "post_revisions",
    "post_autosaves",
    "preview_links",
    "site_content_revisions",
    "site_content_drafts",
    "site_content_share_links",
  ];

  it("moves every draft, revision and share link of posts and pages into the versioning tables, and drops the old ones", async () => {
    const connection = await newDatabase();
    await migrateTo(connection, "026_analytics_guards");
    const db = connection.db as Kysely<any>;
    await db
      .insertInto("admin_users")
      .values({ id: ADMIN, email: "owner@example.com", password_hash: "x", created_at: DATE, updated_at: DATE })
      .execute();
    await db
      .insertInto("posts")
      .values({ ...oldPost(1, { slug: "hello", category: "Ops", content: "Body 2" }), category_slug: "ops" })
      .execute();
    const revision = (n: number) => ({
      id: id(n),
      post_id: POST,
      number: n,
      title: `Title ${n}`,
      excerpt: "e",
      content: `Body ${n}`,
      fields: JSON.stringify(fields),
      admin_id: n === 1 ? null : ADMIN,
      admin_name: n === 1 ? "" : "Owner",
      created_at: `2026-01-0${n}T00:00:00.000Z`,
    });
    await db
      .insertInto("post_revisions")
      .values([revision(1), revision(2)])
      .execute();
    await db
      .insertInto("post_autosaves")
      .values({
        post_id: POST,
        admin_id: ADMIN,
        title: "Half",
        excerpt: "",
        content: "Half-written",
        fields: JSON.stringify(fields),
        base_updated_at: DATE,
        saved_at: "2026-01-03T00:00:00.000Z",
      })
      .execute();
    const link = (n: number, extra: Record<string, unknown>) => ({
      id: id(10 + n),
      token_hash: String(n).repeat(64),
      created_by: ADMIN,
      created_at: DATE,
      expires_at: "2026-01-08T00:00:00.000Z",
      ...extra,
    });
    await db
      .insertInto("preview_links")
      .values([
        link(1, { post_id: POST, revoked_at: null }),
        link(2, { post_id: POST, revoked_at: "2026-01-02T00:00:00.000Z" }),
      ])
      .execute();
    await db
      .insertInto("site_content_share_links")
      .values(link(3, { name: "about" }))
      .execute();
    const landing = (version: number) => ({
      id: id(20 + version),
      name: "landing",
      version,
      document: JSON.stringify({ hero: `v${version}` }),
      published_at: `2026-01-1${version}T00:00:00.000Z`,
      published_by: version === 0 ? null : "owner@example.com",
    });
    await db
      .insertInto("site_content_revisions")
      .values([landing(0), landing(1)])
      .execute();
    await db
      .insertInto("site_content_drafts")
      .values({
        name: "about",
        document: JSON.stringify({ tagline: "Draft" }),
        base_version: 3,
        draft_version: 7,
        saved_at: DATE,
        saved_by: "owner@example.com",
      })
      .execute();

    await migrateTo(connection, "027_versioning");

    const tables = (await db.introspection.getTables()).map((table) => table.name);
    for (const table of OLD_TABLES) expect(tables).not.toContain(table);
    const revisions = await db
      .selectFrom("document_revisions")
      .selectAll()
      .orderBy("document_kind")
      .orderBy("number")
      .execute();
    expect(revisions.map((row) => ({ ...row, state: JSON.parse(row.state) as unknown }))).toEqual([
      {
        id: id(20),
        document_kind: "page",
        document_id: "landing",
        number: 0,
        label: "",
        state: { hero: "v0" },
        saved_by_id: null,
        saved_by: null,
        saved_at: "2026-01-10T00:00:00.000Z",
      },
      {
        id: id(21),
        document_kind: "page",
        document_id: "landing",
        number: 1,
        label: "",
        state: { hero: "v1" },
        saved_by_id: null,
        saved_by: "owner@example.com",
        saved_at: "2026-01-11T00:00:00.000Z",
      },
      ...[1, 2].map((n) => ({
        id: id(n),
        document_kind: "post",
        document_id: POST,
        number: n,
        label: `Title ${n}`,
        state: { title: `Title ${n}`, excerpt: "e", content: `Body ${n}`, fields },
        saved_by_id: n === 1 ? null : ADMIN,
        saved_by: n === 1 ? "" : "Owner",
        saved_at: `2026-01-0${n}T00:00:00.000Z`,
      })),
    ]);
    const drafts = await db.selectFrom("document_drafts").selectAll().orderBy("document_kind").execute();
    expect(drafts.map(({ id: _id, state, ...row }) => ({ ...row, state: JSON.parse(state) as unknown }))).toEqual([
      {
        document_kind: "page",
        document_id: "about",
        admin_id: null,
        state: { tagline: "Draft" },
        base_version: "3",
        draft_version: 7,
        saved_at: DATE,
        saved_by: "owner@example.com",
      },
      {
        document_kind: "post",
        document_id: POST,
        admin_id: ADMIN,
        state: { title: "Half", excerpt: "", content: "Half-written", fields },
        base_version: DATE,
        draft_version: 1,
        saved_at: "2026-01-03T00:00:00.000Z",
        saved_by: null,
      },
    ]);
    expect(new Set(drafts.map((row) => row.id)).size).toBe(2);
    const links = await db.selectFrom("share_links").selectAll().orderBy("id").execute();
    expect(links).toEqual([
      { ...link(1, {}), document_kind: "post", document_id: POST, revoked_at: null },
      { ...link(2, {}), document_kind: "post", document_id: POST, revoked_at: "2026-01-02T00:00:00.000Z" },
      { ...link(3, {}), document_kind: "page", document_id: "about", revoked_at: null },
    ]);

    // One shared draft per document, and one per document and administrator.
    const draft = { document_kind: "page", state: "{}", base_version: "0", draft_version: 1, saved_at: DATE };
    await expect(
      db
        .insertInto("document_drafts")
        .values({ ...draft, id: id(30), document_id: "about", admin_id: null })
        .execute(),
    ).rejects.toThrow();
    await expect(
      db
        .insertInto("document_drafts")
        .values({ ...draft, id: id(31), document_kind: "post", document_id: POST, admin_id: ADMIN })
        .execute(),
    ).rejects.toThrow();
    // An administrator's drafts and links go with the account.
    await db.deleteFrom("admin_users").where("id", "=", ADMIN).execute();
    expect(await db.selectFrom("share_links").selectAll().execute()).toEqual([]);
    expect(
      (await db.selectFrom("document_drafts").select("document_kind").execute()).map((row) => row.document_kind),
    ).toEqual(["page"]);
  });
});
