import { sql, type Kysely } from "kysely";

/**
 * One versioning engine for every kind of document (ADR 064): the drafts,
 * revisions and share links of posts (migrations 018, 019) and of pages
 * (migration 020) move into three tables keyed by (`document_kind`,
 * `document_id`): a post's id, or a page's name. A revision's or a draft's
 * `state` is the document as JSON: a post's title, excerpt, content and
 * other fields (`{title, excerpt, content, fields}`), a page's document.
 *
 * Every row of the six old tables is moved, then they are dropped. Rows
 * whose moving needs JSON or a new id (post revisions, drafts) are read in
 * batches in key order, so a long history takes bounded memory; the rest is
 * one INSERT ... SELECT each. Frozen (ADR 050): imports only Kysely (new
 * ids come from the global Web Crypto). `down` moves nothing back.
 */

const BATCH = 100;

export async function up(db: Kysely<any>): Promise<void> {
  await createTables(db);
  await movePostRevisions(db);
  await db
    .insertInto("document_revisions")
    .columns(["id", "document_kind", "document_id", "number", "label", "state", "saved_by_id", "saved_by", "saved_at"])
    .expression(
      db
        .selectFrom("site_content_revisions")
        .select([
          "id",
          sql.lit("page").as("document_kind"),
          "name",
          "version",
          sql.lit("").as("label"),
          "document",
          sql<null>`null`.as("saved_by_id"),
          "published_by",
          "published_at",
        ]),
    )
    .execute();
  await movePostDrafts(db);
  await movePageDrafts(db);
  await db
    .insertInto("share_links")
    .columns([
      "id",
      "document_kind",
      "document_id",
      "token_hash",
      "created_by",
      "created_at",
      "expires_at",
      "revoked_at",
    ])
    .expression(
      db
        .selectFrom("preview_links")
        .select([
          "id",
          sql.lit("post").as("document_kind"),
          "post_id",
          "token_hash",
          "created_by",
          "created_at",
          "expires_at",
          "revoked_at",
        ]),
    )
    .execute();
  await db
    .insertInto("share_links")
    .columns([
      "id",
      "document_kind",
      "document_id",
      "token_hash",
      "created_by",
      "created_at",
      "expires_at",
      "revoked_at",
    ])
    .expression(
      db
        .selectFrom("site_content_share_links")
        .select([
          "id",
          sql.lit("page").as("document_kind"),
          "name",
          "token_hash",
          "created_by",
          "created_at",
          "expires_at",
          sql<null>`null`.as("revoked_at"),
        ]),
    )
    .execute();
  for (const table of [
    "preview_links",
    "post_autosaves",
    "post_revisions",
    "site_content_share_links",
    "site_content_drafts",
    "site_content_revisions",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}

async function createTables(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("document_revisions")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("document_kind", "varchar(20)", (c) => c.notNull())
    .addColumn("document_id", "varchar(40)", (c) => c.notNull())
    .addColumn("number", "integer", (c) => c.notNull())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("saved_by_id", "varchar(36)")
    .addColumn("saved_by", "varchar(320)")
    .addColumn("saved_at", "varchar(30)", (c) => c.notNull())
    .addUniqueConstraint("document_revisions_number_key", ["document_kind", "document_id", "number"])
    .execute();
  await db.schema
    .createTable("document_drafts")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("document_kind", "varchar(20)", (c) => c.notNull())
    .addColumn("document_id", "varchar(40)", (c) => c.notNull())
    .addColumn("admin_id", "varchar(36)", (c) => c.references("admin_users.id").onDelete("cascade"))
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("base_version", "varchar(30)", (c) => c.notNull())
    .addColumn("draft_version", "integer", (c) => c.notNull())
    .addColumn("saved_at", "varchar(30)", (c) => c.notNull())
    .addColumn("saved_by", "varchar(320)")
    .execute();
  // One draft per document and administrator, or one shared draft (admin_id null) per document.
  await db.schema
    .createIndex("document_drafts_owner_key")
    .on("document_drafts")
    .columns(["document_kind", "document_id", "admin_id"])
    .unique()
    .execute();
  await db.schema
    .createIndex("document_drafts_shared_key")
    .on("document_drafts")
    .columns(["document_kind", "document_id"])
    .unique()
    .where(sql.ref("admin_id"), "is", null)
    .execute();
  await db.schema.createIndex("document_drafts_admin_idx").on("document_drafts").column("admin_id").execute();
  await db.schema
    .createTable("share_links")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("document_kind", "varchar(20)", (c) => c.notNull())
    .addColumn("document_id", "varchar(40)", (c) => c.notNull())
    .addColumn("token_hash", "varchar(64)", (c) => c.notNull().unique())
    .addColumn("created_by", "varchar(36)", (c) => c.notNull().references("admin_users.id").onDelete("cascade"))
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .addColumn("expires_at", "varchar(30)", (c) => c.notNull())
    .addColumn("revoked_at", "varchar(30)")
    .execute();
  // A document's links (the list, the cap); pruning reads expires_at; an account's go with it.
  await db.schema
    .createIndex("share_links_document_idx")
    .on("share_links")
    .columns(["document_kind", "document_id", "created_at"])
    .execute();
  await db.schema.createIndex("share_links_expires_idx").on("share_links").column("expires_at").execute();
  await db.schema.createIndex("share_links_creator_idx").on("share_links").column("created_by").execute();
}

type Row = Record<string, string | number | null>;

/** `fields` as the old tables kept it: JSON text of an object. */
function fieldsOf(text: unknown): unknown {
  try {
    const value: unknown = JSON.parse(String(text));
    return typeof value === "object" && value !== null ? value : {};
  } catch {
    return {};
  }
}

const postState = (row: Row) =>
  JSON.stringify({ title: row.title, excerpt: row.excerpt, content: row.content, fields: fieldsOf(row.fields) });

async function movePostRevisions(db: Kysely<any>): Promise<void> {
  for (let after: string | undefined; ;) {
    let query = db.selectFrom("post_revisions").selectAll().orderBy("id").limit(BATCH);
    if (after !== undefined) query = query.where("id", ">", after);
    const rows = (await query.execute()) as Row[];
    if (rows.length === 0) return;
    await db
      .insertInto("document_revisions")
      .values(
        rows.map((row) => ({
          id: row.id,
          document_kind: "post",
          document_id: row.post_id,
          number: row.number,
          label: row.title,
          state: postState(row),
          saved_by_id: row.admin_id,
          saved_by: row.admin_name,
          saved_at: row.created_at,
        })),
      )
      .execute();
    after = String(rows.at(-1)!.id);
  }
}

/** Each administrator's autosaved draft of a post: its base is the post's updatedAt. */
async function movePostDrafts(db: Kysely<any>): Promise<void> {
  for (let offset = 0; ; offset += BATCH) {
    const rows = (await db
      .selectFrom("post_autosaves")
      .selectAll()
      .orderBy("post_id")
      .orderBy("admin_id")
      .limit(BATCH)
      .offset(offset)
      .execute()) as Row[];
    if (rows.length === 0) return;
    await db
      .insertInto("document_drafts")
      .values(
        rows.map((row) => ({
          id: crypto.randomUUID(),
          document_kind: "post",
          document_id: row.post_id,
          admin_id: row.admin_id,
          state: postState(row),
          base_version: row.base_updated_at,
          draft_version: 1,
          saved_at: row.saved_at,
          saved_by: null,
        })),
      )
      .execute();
  }
}

/** A page's one shared draft: its base is the published version, as text. */
async function movePageDrafts(db: Kysely<any>): Promise<void> {
  const rows = (await db.selectFrom("site_content_drafts").selectAll().orderBy("name").execute()) as Row[];
  if (rows.length === 0) return;
  await db
    .insertInto("document_drafts")
    .values(
      rows.map((row) => ({
        id: crypto.randomUUID(),
        document_kind: "page",
        document_id: row.name,
        admin_id: null,
        state: row.document,
        base_version: String(row.base_version),
        draft_version: row.draft_version,
        saved_at: row.saved_at,
        saved_by: row.saved_by,
      })),
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("share_links").execute();
  await db.schema.dropTable("document_drafts").execute();
  await db.schema.dropTable("document_revisions").execute();
}
