import { sql, type Kysely, type Migration } from "kysely";
import { fillCategorySlugs } from "../category-slugs.server";
import { renameReservedSlugs } from "../reserved-slugs.server";
import { rebuildImageReferences } from "../image-references.server";
import { isPostgres } from "./dialect.server";

/**
 * Binary column type: Kysely writes data types verbatim and PostgreSQL has no
 * "blob", so the one dialect difference is spelled out here (bytea there).
 */
function binaryType(db: Kysely<any>) {
  return isPostgres(db) ? sql`bytea` : sql`blob`;
}

/**
 * Migrations, written once with Kysely's schema builder in types both SQLite
 * and PostgreSQL understand. Append only: never edit a migration that shipped.
 */
export const migrations: Record<string, Migration> = {
  "001_initial": {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("posts")
        .addColumn("id", "varchar(36)", (c) => c.primaryKey())
        .addColumn("title", "text", (c) => c.notNull())
        .addColumn("slug", "varchar(200)", (c) => c.notNull().unique())
        .addColumn("excerpt", "text", (c) => c.notNull())
        .addColumn("content", "text", (c) => c.notNull())
        .addColumn("content_html", "text", (c) => c.notNull())
        .addColumn("category", "text", (c) => c.notNull())
        .addColumn("author", "text", (c) => c.notNull())
        .addColumn("publish_date", "varchar(30)", (c) => c.notNull())
        .addColumn("read_time", "text", (c) => c.notNull())
        .addColumn("published", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("header_image", "text")
        .addColumn("created_at", "varchar(30)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(30)", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("posts_public_idx").on("posts").columns(["published", "publish_date"]).execute();

      await db.schema
        .createTable("admin_users")
        .addColumn("id", "varchar(36)", (c) => c.primaryKey())
        .addColumn("email", "varchar(320)", (c) => c.notNull().unique())
        .addColumn("password_hash", "text", (c) => c.notNull())
        .addColumn("created_at", "varchar(30)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(30)", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("sessions")
        .addColumn("id", "varchar(64)", (c) => c.primaryKey())
        .addColumn("user_id", "varchar(36)", (c) => c.notNull().references("admin_users.id").onDelete("cascade"))
        .addColumn("created_at", "varchar(30)", (c) => c.notNull())
        .addColumn("expires_at", "varchar(30)", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("sessions_user_idx").on("sessions").column("user_id").execute();
      await db.schema.createIndex("sessions_expires_idx").on("sessions").column("expires_at").execute();

      await db.schema
        .createTable("setup_tokens")
        .addColumn("token_hash", "varchar(64)", (c) => c.primaryKey())
        .addColumn("created_at", "varchar(30)", (c) => c.notNull())
        .addColumn("expires_at", "varchar(30)", (c) => c.notNull())
        .execute();

      // Shape required by rate-limiter-flexible's SQLite and PostgreSQL stores.
      await db.schema
        .createTable("rate_limits")
        .addColumn("key", "varchar(255)", (c) => c.primaryKey())
        .addColumn("points", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("expire", "bigint")
        .execute();
    },
    async down(db: Kysely<any>) {
      for (const table of ["rate_limits", "setup_tokens", "sessions", "admin_users", "posts"]) {
        await db.schema.dropTable(table).execute();
      }
    },
  },
  "002_images": {
    // Uploaded images live in the database (PRODUCT §8: no local disk), keyed by
    // the SHA-256 of the uploaded bytes, so their URLs never change meaning.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("images")
        .addColumn("id", "varchar(64)", (c) => c.primaryKey())
        .addColumn("source_format", "varchar(10)", (c) => c.notNull())
        .addColumn("width", "integer", (c) => c.notNull())
        .addColumn("height", "integer", (c) => c.notNull())
        .addColumn("content_type", "varchar(50)", (c) => c.notNull())
        .addColumn("byte_size", "integer", (c) => c.notNull())
        // The upload, re-encoded in its own format with its metadata stripped.
        .addColumn("bytes", binaryType(db), (c) => c.notNull())
        .addColumn("created_at", "varchar(30)", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("image_variants")
        .addColumn("image_id", "varchar(64)", (c) => c.notNull().references("images.id").onDelete("cascade"))
        .addColumn("width", "integer", (c) => c.notNull())
        .addColumn("height", "integer", (c) => c.notNull())
        .addColumn("format", "varchar(10)", (c) => c.notNull())
        .addColumn("content_type", "varchar(50)", (c) => c.notNull())
        .addColumn("byte_size", "integer", (c) => c.notNull())
        .addColumn("bytes", binaryType(db), (c) => c.notNull())
        .addPrimaryKeyConstraint("image_variants_pk", ["image_id", "format", "width"])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("image_variants").execute();
      await db.schema.dropTable("images").execute();
    },
  },
  // A counter bumped by every write that changes public pages, so each app
  // process can tell with one cheap read whether its cached pages are current
  // (see app/server/page-cache/ and ADR 024).
  "005_content_version": {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("content_version")
        .addColumn("id", "integer", (c) => c.primaryKey())
        .addColumn("version", "bigint", (c) => c.notNull())
        .execute();
      await db.insertInto("content_version").values({ id: 1, version: 1 }).execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("content_version").execute();
    },
  },
  "003_contact_messages": {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("contact_messages")
        .addColumn("id", "varchar(36)", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("email", "varchar(320)", (c) => c.notNull())
        .addColumn("phone", "text")
        .addColumn("preferred_contact", "varchar(10)", (c) => c.notNull())
        .addColumn("service", "varchar(20)", (c) => c.notNull())
        .addColumn("message", "text", (c) => c.notNull())
        .addColumn("created_at", "varchar(30)", (c) => c.notNull())
        .addColumn("read_at", "varchar(30)")
        // E-mail notice: 'off' (no SMTP), 'pending', 'sent' or 'failed' (gave up).
        .addColumn("notice_status", "varchar(10)", (c) => c.notNull())
        .addColumn("notice_attempts", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("notice_next_at", "varchar(30)")
        .addColumn("notice_error", "text")
        .execute();
      await db.schema.createIndex("contact_messages_created_idx").on("contact_messages").column("created_at").execute();
      await db.schema
        .createIndex("contact_messages_notice_idx")
        .on("contact_messages")
        .columns(["notice_status", "notice_next_at"])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("contact_messages").execute();
    },
  },
  // Sessions also end after a day without a request (ADR 021). Sessions open
  // at the upgrade count as seen at that moment, so nobody is signed out by it.
  "006_session_last_seen": {
    async up(db: Kysely<any>) {
      await db.schema.alterTable("sessions").addColumn("last_seen_at", "varchar(30)").execute();
      await db.updateTable("sessions").set({ last_seen_at: new Date().toISOString() }).execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable("sessions").dropColumn("last_seen_at").execute();
    },
  },
  // The admin's paged lists (ADR 026): each order a page is read in has an
  // index, so a page costs the same on page 1 and page 2,000, with 100,000
  // posts or messages.
  "007_admin_list_indexes": {
    async up(db: Kysely<any>) {
      // Newest publishDate first, then id (newestFirst); read backwards, oldest
      // first. The title is there for the title filter: SQLite tests it on the
      // index entry before it reads the row (ADR 026's measurements).
      await db.schema
        .createIndex("posts_publish_date_idx")
        .on("posts")
        .columns(["publish_date desc", "id", "title"])
        .execute();
      // Title A to Z ignoring case, then id; read backwards, Z to A.
      await db.schema
        .createIndex("posts_title_idx")
        .on("posts")
        .expression(sql`lower(title), id`)
        .execute();
      // Newest first, then id; (created_at) alone left the id to a sort.
      await db.schema
        .createIndex("contact_messages_list_idx")
        .on("contact_messages")
        .columns(["created_at", "id"])
        .execute();
      await db.schema.dropIndex("contact_messages_created_idx").execute();
      // The unread count: only unread messages are in it.
      await db.schema
        .createIndex("contact_messages_unread_idx")
        .on("contact_messages")
        .column("created_at")
        .where(sql.ref("read_at"), "is", null)
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex("contact_messages_unread_idx").execute();
      await db.schema.createIndex("contact_messages_created_idx").on("contact_messages").column("created_at").execute();
      await db.schema.dropIndex("contact_messages_list_idx").execute();
      await db.schema.dropIndex("posts_title_idx").execute();
      await db.schema.dropIndex("posts_publish_date_idx").execute();
    },
  },
  // The public list's order is (publish_date desc, id asc): with id in the
  // index, a neighbour of an article is one index step away and the count of
  // newer posts reads the index alone. It replaces (published, publish_date).
  "008_posts_order_index": {
    async up(db: Kysely<any>) {
      await db.schema.createIndex("posts_order_idx").on("posts").columns(["published", "publish_date", "id"]).execute();
      await db.schema.dropIndex("posts_public_idx").execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.createIndex("posts_public_idx").on("posts").columns(["published", "publish_date"]).execute();
      await db.schema.dropIndex("posts_order_idx").execute();
    },
  },
  // The admin's title filter ("title contains", ignoring case) gets an index
  // on each backend (ADR 030): a trigram index answers "contains" without
  // reading every title.
  "009_title_search": {
    async up(db: Kysely<any>) {
      if (isPostgres(db)) await addTitleTrigramIndex(db);
      else await addTitleSearchTable(db);
    },
    async down(db: Kysely<any>) {
      if (isPostgres(db)) {
        await sql`drop index if exists posts_title_trgm_idx`.execute(db);
        return;
      }
      for (const trigger of ["insert", "update", "keys_update", "delete"]) {
        await sql`drop trigger ${sql.id(`posts_title_search_${trigger}`)}`.execute(db);
      }
      await sql`drop table posts_title_search_keys`.execute(db);
      await sql`drop table posts_title_search`.execute(db);
    },
  },
  // The owner's site settings (ADR 034): one row, id 1, written at first
  // start from the environment (COMPANY_NAME, CONTACT_EMAIL, ...), then only
  // by the admin's Settings screen. Null means "not set": shown nowhere.
  "010_site_settings": {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("site_settings")
        .addColumn("id", "integer", (c) => c.primaryKey())
        .addColumn("company_name", "text", (c) => c.notNull())
        .addColumn("contact_email", "varchar(320)")
        .addColumn("contact_phone", "varchar(40)")
        .addColumn("location", "text")
        .addColumn("facebook_url", "text")
        .addColumn("instagram_url", "text")
        .addColumn("linkedin_url", "text")
        .addColumn("meta_description", "text")
        .addColumn("notify_email", "varchar(320)")
        .addColumn("updated_at", "varchar(30)", (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("site_settings").execute();
    },
  },
  // The inbox (ADR 035): "delete all from this sender" and the count it
  // confirms first look messages up by e-mail ignoring case. The search
  // ("name or e-mail contains") reads the inbox's order with the name and
  // e-mail beside it: SQLite tests them on the index entries and reads only
  // the matching rows, not every message's text (ADR 035's measurements);
  // it replaces (created_at, id) from migration 007.
  "011_inbox": {
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex("contact_messages_sender_idx")
        .on("contact_messages")
        .expression(sql`lower(email)`)
        .execute();
      await db.schema
        .createIndex("contact_messages_search_idx")
        .on("contact_messages")
        .columns(["created_at", "id", "name", "email"])
        .execute();
      // It serves the inbox's order as (created_at, id) did, which SQLite
      // otherwise keeps choosing for a search (the smaller index), reading
      // every row to test it.
      await db.schema.dropIndex("contact_messages_list_idx").execute();
    },
    async down(db: Kysely<any>) {
      await db.schema
        .createIndex("contact_messages_list_idx")
        .on("contact_messages")
        .columns(["created_at", "id"])
        .execute();
      await db.schema.dropIndex("contact_messages_search_idx").execute();
      await db.schema.dropIndex("contact_messages_sender_idx").execute();
    },
  },
  // Which uploads each post uses (ADR 036): its header image and the images
  // its markdown names, kept with every write of a post, so an image no post
  // uses can be listed and deleted, and one a post uses cannot. The image's
  // key has no ON DELETE: deleting a used image fails in the database too,
  // whatever raced with it. Filled from the posts already there.
  "012_image_references": {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("image_references")
        .addColumn("post_id", "varchar(36)", (c) => c.notNull().references("posts.id").onDelete("cascade"))
        .addColumn("image_id", "varchar(64)", (c) => c.notNull().references("images.id"))
        .addPrimaryKeyConstraint("image_references_pk", ["post_id", "image_id"])
        .execute();
      await db.schema.createIndex("image_references_image_idx").on("image_references").column("image_id").execute();
      // The Images screen's order: newest upload first.
      await db.schema.createIndex("images_created_idx").on("images").columns(["created_at desc", "id"]).execute();
      await rebuildImageReferences(db);
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex("images_created_idx").execute();
      await db.schema.dropTable("image_references").execute();
    },
  },
  // Two-factor sign-in and the Account screen's list of sessions (ADR 037).
  // On admin_users: the TOTP secret (encrypted or marked plain), a secret
  // being set up and not yet confirmed, when 2FA was turned on, the last
  // accepted time step (a code is accepted once), the recovery codes'
  // SHA-256 hashes (a JSON array; one is removed when used). On sessions:
  // the browser and address that signed in, for the list.
  "013_two_factor": {
    async up(db: Kysely<any>) {
      await db.schema.alterTable("admin_users").addColumn("totp_secret", "text").execute();
      await db.schema.alterTable("admin_users").addColumn("totp_pending_secret", "text").execute();
      await db.schema.alterTable("admin_users").addColumn("totp_enabled_at", "varchar(30)").execute();
      await db.schema.alterTable("admin_users").addColumn("totp_last_step", "integer").execute();
      await db.schema.alterTable("admin_users").addColumn("recovery_codes", "text").execute();
      await db.schema.alterTable("sessions").addColumn("user_agent", "varchar(300)").execute();
      await db.schema.alterTable("sessions").addColumn("ip_address", "varchar(64)").execute();
    },
    async down(db: Kysely<any>) {
      for (const column of ["ip_address", "user_agent"]) {
        await db.schema.alterTable("sessions").dropColumn(column).execute();
      }
      for (const column of [
        "recovery_codes",
        "totp_last_step",
        "totp_enabled_at",
        "totp_pending_secret",
        "totp_secret",
      ]) {
        await db.schema.alterTable("admin_users").dropColumn(column).execute();
      }
    },
  },
  // More administrators and the audit log (ADR 038): a display name and the
  // last sign-in on each administrator, one-time invitations (stored hashed,
  // as the setup link), and the audit log, read newest first.
  "014_admins_and_audit": {
    async up(db: Kysely<any>) {
      await db.schema.alterTable("admin_users").addColumn("name", "varchar(100)").execute();
      await db.schema.alterTable("admin_users").addColumn("last_sign_in_at", "varchar(30)").execute();

      await db.schema
        .createTable("admin_invites")
        .addColumn("id", "varchar(36)", (c) => c.primaryKey())
        .addColumn("token_hash", "varchar(64)", (c) => c.notNull().unique())
        .addColumn("email", "varchar(320)", (c) => c.notNull())
        .addColumn("invited_by", "varchar(320)", (c) => c.notNull())
        .addColumn("created_at", "varchar(30)", (c) => c.notNull())
        .addColumn("expires_at", "varchar(30)", (c) => c.notNull())
        .addColumn("accepted_at", "varchar(30)")
        .addColumn("revoked_at", "varchar(30)")
        .execute();
      await db.schema.createIndex("admin_invites_created_idx").on("admin_invites").column("created_at").execute();

      await db.schema
        .createTable("audit_log")
        .addColumn("id", "varchar(36)", (c) => c.primaryKey())
        .addColumn("created_at", "varchar(30)", (c) => c.notNull())
        .addColumn("action", "varchar(40)", (c) => c.notNull())
        .addColumn("actor_id", "varchar(36)")
        .addColumn("actor_email", "varchar(320)")
        .addColumn("target", "varchar(300)")
        .addColumn("client_address", "varchar(64)")
        .addColumn("user_agent", "varchar(200)")
        .execute();
      // Newest first, whole or filtered by action or by administrator; pruning reads the first.
      await db.schema.createIndex("audit_log_created_idx").on("audit_log").columns(["created_at", "id"]).execute();
      await db.schema
        .createIndex("audit_log_action_idx")
        .on("audit_log")
        .columns(["action", "created_at", "id"])
        .execute();
      await db.schema
        .createIndex("audit_log_actor_idx")
        .on("audit_log")
        .columns(["actor_id", "created_at", "id"])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("audit_log").execute();
      await db.schema.dropTable("admin_invites").execute();
      await db.schema.alterTable("admin_users").dropColumn("last_sign_in_at").execute();
      await db.schema.alterTable("admin_users").dropColumn("name").execute();
    },
  },
  // Per-post SEO (issue 18, PRODUCT §10, ADR 040): an optional title and
  // description for search results and share previews, the header image's
  // alt text, and "hide from search engines". Null and 0 for every post so far.
  "015_post_seo": {
    async up(db: Kysely<any>) {
      await db.schema.alterTable("posts").addColumn("meta_title", "text").execute();
      await db.schema.alterTable("posts").addColumn("meta_description", "text").execute();
      await db.schema.alterTable("posts").addColumn("header_image_alt", "text").execute();
      await db.schema
        .alterTable("posts")
        .addColumn("noindex", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<any>) {
      for (const column of ["noindex", "header_image_alt", "meta_description", "meta_title"]) {
        await db.schema.alterTable("posts").dropColumn(column).execute();
      }
    },
  },
  // Category pages (issue 18, PRODUCT §10, ADR 041): each post's category
  // slug (SPEC §5's rule on its category, "" for none), filled for the posts
  // so far, and an index that reads a category's public posts newest first.
  "016_post_category_slug": {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable("posts")
        .addColumn("category_slug", "varchar(200)", (c) => c.notNull().defaultTo(""))
        .execute();
      await fillCategorySlugs(db);
      await db.schema
        .createIndex("posts_category_idx")
        .on("posts")
        // noindex and updated_at ride along so the sitemap's per-category reads never touch a row.
        .columns(["category_slug", "published", "publish_date", "id", "noindex", "updated_at"])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex("posts_category_idx").execute();
      await db.schema.alterTable("posts").dropColumn("category_slug").execute();
    },
  },
  // The blog's full-text search (ADR 042): an index of each post's title,
  // excerpt, category and markdown, kept in step by triggers on posts; and
  // /blog/search is the search page, so a post may no longer be called "search".
  "017_post_search": {
    async up(db: Kysely<any>) {
      await renameReservedSlugs(db);
      if (isPostgres(db)) await addPostgresSearch(db);
      else await addSqliteSearch(db);
    },
    async down(db: Kysely<any>) {
      if (isPostgres(db)) {
        await sql`drop trigger posts_search_sync on posts`.execute(db);
        await sql`drop function posts_search_sync()`.execute(db);
        await sql`drop table posts_search`.execute(db);
        await sql`drop function posts_search_document(text, text, text, text)`.execute(db);
        return;
      }
      for (const trigger of ["insert", "update", "delete"]) {
        await sql`drop trigger ${sql.id(`posts_search_${trigger}`)}`.execute(db);
      }
      await sql`drop table posts_search`.execute(db);
    },
  },
  // Autosave and revisions (issue 18, ADR 043): every save of a post keeps a
  // copy (the newest 50 per post), and each administrator has at most one
  // autosaved draft per post. Both go with their post.
  "018_post_revisions": {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("post_revisions")
        .addColumn("id", "varchar(36)", (c) => c.primaryKey())
        .addColumn("post_id", "varchar(36)", (c) => c.notNull().references("posts.id").onDelete("cascade"))
        .addColumn("number", "integer", (c) => c.notNull())
        .addColumn("title", "text", (c) => c.notNull())
        .addColumn("excerpt", "text", (c) => c.notNull())
        .addColumn("content", "text", (c) => c.notNull())
        .addColumn("fields", "text", (c) => c.notNull())
        .addColumn("admin_id", "varchar(36)")
        .addColumn("admin_name", "varchar(320)", (c) => c.notNull())
        .addColumn("created_at", "varchar(30)", (c) => c.notNull())
        .addUniqueConstraint("post_revisions_number_key", ["post_id", "number"])
        .execute();
      await db.schema
        .createTable("post_autosaves")
        .addColumn("post_id", "varchar(36)", (c) => c.notNull().references("posts.id").onDelete("cascade"))
        .addColumn("admin_id", "varchar(36)", (c) => c.notNull().references("admin_users.id").onDelete("cascade"))
        .addColumn("title", "text", (c) => c.notNull())
        .addColumn("excerpt", "text", (c) => c.notNull())
        .addColumn("content", "text", (c) => c.notNull())
        .addColumn("fields", "text", (c) => c.notNull())
        .addColumn("base_updated_at", "varchar(30)", (c) => c.notNull())
        .addColumn("saved_at", "varchar(30)", (c) => c.notNull())
        .addPrimaryKeyConstraint("post_autosaves_pkey", ["post_id", "admin_id"])
        .execute();
      await db.schema.createIndex("post_autosaves_admin_idx").on("post_autosaves").column("admin_id").execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("post_autosaves").execute();
      await db.schema.dropTable("post_revisions").execute();
    },
  },
  // Share links of drafts and scheduled posts (issue 18, ADR 044): only the
  // token's SHA-256 is stored; a link goes with its post and its creator.
  "019_preview_links": {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("preview_links")
        .addColumn("id", "varchar(36)", (c) => c.primaryKey())
        .addColumn("post_id", "varchar(36)", (c) => c.notNull().references("posts.id").onDelete("cascade"))
        .addColumn("token_hash", "varchar(64)", (c) => c.notNull().unique())
        .addColumn("created_by", "varchar(36)", (c) => c.notNull().references("admin_users.id").onDelete("cascade"))
        .addColumn("created_at", "varchar(30)", (c) => c.notNull())
        .addColumn("expires_at", "varchar(30)", (c) => c.notNull())
        .addColumn("revoked_at", "varchar(30)")
        .execute();
      // A post's links (the list, the cap, the cascade); pruning reads expires_at.
      await db.schema
        .createIndex("preview_links_post_idx")
        .on("preview_links")
        .columns(["post_id", "created_at"])
        .execute();
      await db.schema.createIndex("preview_links_expires_idx").on("preview_links").column("expires_at").execute();
      await db.schema.createIndex("preview_links_creator_idx").on("preview_links").column("created_by").execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("preview_links").execute();
    },
  },
};

/**
 * SQLite: an FTS5 table of the lowercased titles with the trigram tokenizer,
 * one row per post under the post's rowid, kept in step by triggers, so every
 * way a post is written (the API, copy-database, a script's SQL) keeps it
 * current. Case-sensitive trigrams of lower(title), queried with lower(q),
 * match exactly what `lower(title) like lower(q)` matches: SQLite's lower()
 * folds ASCII letters on both sides, as the filter did before (ADR 026).
 * Beside it, under the same rowid, each post's sort keys (id, publish_date,
 * lower(title)) in a small table: a page is sorted from its matches without
 * reading the posts' rows, whose date lies past the markdown and HTML, and
 * faster than from the FTS5 table's own columns (ADR 030).
 */
async function addTitleSearchTable(db: Kysely<any>) {
  // contentless_delete: rows are deleted by rowid alone (SQLite 3.43).
  await sql`create virtual table posts_title_search using fts5(
    title, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 1'
  )`.execute(db);
  await sql`create table posts_title_search_keys (
    post_rowid integer primary key, id varchar(36) not null, publish_date varchar(30) not null, title text not null
  )`.execute(db);
  await sql`insert into posts_title_search (rowid, title) select rowid, lower(title) from posts`.execute(db);
  // In rowid order (SQLite would read an index that holds these columns, in its order): full pages.
  await sql`insert into posts_title_search_keys (post_rowid, id, publish_date, title)
    select rowid, id, publish_date, lower(title) from posts order by rowid`.execute(db);
  // One merged index for the posts already there instead of the bulk insert's many segments.
  await sql`insert into posts_title_search (posts_title_search) values ('optimize')`.execute(db);
  await sql`create trigger posts_title_search_insert after insert on posts begin
    insert into posts_title_search (rowid, title) values (new.rowid, lower(new.title));
    insert into posts_title_search_keys (post_rowid, id, publish_date, title)
    values (new.rowid, new.id, new.publish_date, lower(new.title));
  end`.execute(db);
  await sql`create trigger posts_title_search_update after update of title on posts
  when new.title is not old.title begin
    update posts_title_search set title = lower(new.title) where rowid = old.rowid;
  end`.execute(db);
  await sql`create trigger posts_title_search_keys_update after update of id, publish_date, title on posts
  when new.id is not old.id or new.publish_date is not old.publish_date or new.title is not old.title begin
    update posts_title_search_keys set id = new.id, publish_date = new.publish_date, title = lower(new.title)
    where post_rowid = old.rowid;
  end`.execute(db);
  await sql`create trigger posts_title_search_delete after delete on posts begin
    delete from posts_title_search where rowid = old.rowid;
    delete from posts_title_search_keys where post_rowid = old.rowid;
  end`.execute(db);
}

/**
 * PostgreSQL: a GIN index of lower(title)'s trigrams (pg_trgm), which serves
 * the filter's `lower(title) like lower(q)` as it is written. pg_trgm is a
 * trusted extension: a user with CREATE on the database (its owner, for one)
 * may create it. Where it cannot be created (no such right, or the server
 * lacks the extension), the migration still succeeds and the filter reads
 * every title, as before; the server says so at every start and names the
 * two statements that add the index (ADR 030, title-search.server.ts).
 */
async function addTitleTrigramIndex(db: Kysely<any>) {
  // A failed statement would abort the migrations' transaction: try it inside a savepoint.
  await sql`savepoint pg_trgm`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`release savepoint pg_trgm`.execute(db);
  } catch {
    await sql`rollback to savepoint pg_trgm`.execute(db);
  }
  // The extension may live in a schema outside the search path (some hosts keep extensions apart).
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema
    from pg_opclass c
    join pg_namespace n on n.oid = c.opcnamespace
    join pg_am a on a.oid = c.opcmethod
    where c.opcname = 'gin_trgm_ops' and a.amname = 'gin'
  `.execute(db);
  if (!rows[0]) return;
  await sql`create index posts_title_trgm_idx on posts
    using gin (lower(title) ${sql.id(rows[0].schema, "gin_trgm_ops")})`.execute(db);
}

/**
 * SQLite: an FTS5 table over the posts' own columns (external content, so
 * snippet() reads the text from posts), one row per post under its rowid,
 * kept in step by triggers like the title index (migration 009), so every way
 * a post is written (the API, copy-database, a restore, a script's SQL)
 * keeps it current. unicode61 folds case and removes diacritics; no stemming
 * (PostgreSQL uses the 'simple' configuration: the same words match on both).
 * Two- and three-character prefixes are indexed for the last word's prefix
 * query (search.server.ts).
 */
async function addSqliteSearch(db: Kysely<any>) {
  await sql`create virtual table posts_search using fts5(
    title, excerpt, category, content,
    content = 'posts', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
  )`.execute(db);
  await sql`insert into posts_search (posts_search) values ('rebuild')`.execute(db);
  await sql`create trigger posts_search_insert after insert on posts begin
    insert into posts_search (rowid, title, excerpt, category, content)
    values (new.rowid, new.title, new.excerpt, new.category, new.content);
  end`.execute(db);
  await sql`create trigger posts_search_update after update of title, excerpt, category, content on posts
  when new.title is not old.title or new.excerpt is not old.excerpt
    or new.category is not old.category or new.content is not old.content begin
    insert into posts_search (posts_search, rowid, title, excerpt, category, content)
    values ('delete', old.rowid, old.title, old.excerpt, old.category, old.content);
    insert into posts_search (rowid, title, excerpt, category, content)
    values (new.rowid, new.title, new.excerpt, new.category, new.content);
  end`.execute(db);
  await sql`create trigger posts_search_delete after delete on posts begin
    insert into posts_search (posts_search, rowid, title, excerpt, category, content)
    values ('delete', old.rowid, old.title, old.excerpt, old.category, old.content);
  end`.execute(db);
}

/**
 * PostgreSQL: each post's tsvector ('simple' configuration; title weight A,
 * excerpt and category B, markdown D, of its first 200,000 characters,
 * so no post's vector nears the 1 MB limit) in a table beside
 * posts with a GIN index, written by a trigger on every insert and on every
 * update of those columns, deleted with its post (ADR 042).
 */
async function addPostgresSearch(db: Kysely<any>) {
  await sql`create function posts_search_document(title text, excerpt text, category text, content text)
  returns tsvector language sql immutable parallel safe as $$
    select setweight(to_tsvector('simple', title), 'A')
      || setweight(to_tsvector('simple', excerpt), 'B')
      || setweight(to_tsvector('simple', category), 'B')
      || setweight(to_tsvector('simple', left(content, 200000)), 'D')
  $$`.execute(db);
  await sql`create table posts_search (
    post_id varchar(36) primary key references posts (id) on delete cascade on update cascade,
    document tsvector not null
  )`.execute(db);
  await sql`insert into posts_search (post_id, document)
    select id, posts_search_document(title, excerpt, category, content) from posts`.execute(db);
  await sql`create index posts_search_document_idx on posts_search using gin (document)`.execute(db);
  await sql`create function posts_search_sync() returns trigger language plpgsql as $$
  begin
    insert into posts_search (post_id, document)
    values (new.id, posts_search_document(new.title, new.excerpt, new.category, new.content))
    on conflict (post_id) do update set document = excluded.document;
    return null;
  end
  $$`.execute(db);
  await sql`create trigger posts_search_sync after insert or update of title, excerpt, category, content on posts
    for each row execute function posts_search_sync()`.execute(db);
}
