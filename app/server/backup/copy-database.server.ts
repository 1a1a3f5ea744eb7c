/**
 * `npm run admin -- copy-database`: a site's rows from one database into
 * another (a SQLite file into PostgreSQL, say). It sits with backup and
 * restore, which also move a site's data whole, and like a restore sets the
 * copied rows right with today's rules (category slugs, reserved slugs, the
 * clients' networks in place of addresses): domain code, which db/ does not
 * import (ADR 050).
 */
import { auditRowAsKept } from "../audit/index.server";
import type { Connection } from "../db/db.server";
import { clientNetwork } from "../platform/client-network.server";
import { fillCategorySlugs, renameReservedSlugs } from "../posts/index.server";

/**
 * The tables a site's data lives in, in an order that satisfies foreign keys
 * (a referenced table before the tables that reference it).
 */
export const COPIED_TABLES = [
  "admin_users",
  "sessions",
  "images",
  "image_variants",
  "posts",
  "image_references",
  "contact_messages",
  // The owner's replies (after their messages) and saved replies (ADR 070).
  "message_replies",
  "saved_replies",
  // The hours for calls and the calls booked (ADR 071), after the messages their leads are.
  "booking_settings",
  "bookings",
  // The newsletter (ADR 072): its subscribers, its mailings (after their posts) and each one's sends. A copy
  // moves the same site with its jobs, so a mailing under way goes on where it stopped, sending nobody twice.
  "subscribers",
  "newsletter_mailings",
  "newsletter_recipients",
  "site_settings",
  "audit_log",
  "redirects",
  "not_found_paths",
  "site_content",
  // Every document's revisions and drafts (ADR 064), after the posts, pages and administrators they belong to.
  "document_revisions",
  "document_drafts",
  "page_image_references",
  "analytics_days",
  "analytics_counts",
  // The same site's webhooks and their log: the target needs the same key (ADR 068).
  "webhooks",
  "webhook_deliveries",
  // The jobs and schedules (ADR 067): a copy moves the same site, so its queued work (a notice not yet
  // sent, a scheduled post's publication) goes with it; a lease from the old processes runs out.
  "jobs",
  "job_schedules",
  // Imports (ADR 074): their reports, a running one's file, and what makes a second import add nothing.
  "imports",
  "import_chunks",
  "import_items",
  "import_images",
] as const;

/** A table whose one row its migration makes (ADR 071): the source's replaces the target's default. */
const MIGRATION_MADE_ROWS = "booking_settings";

/**
 * The primary keys of more than one column (migrations 002, 012, 022, 023, 032, 034); every
 * other copied table's key is its first column. Batches are read in key
 * order, which is total, so no row is skipped or read twice between them.
 */
const COMPOUND_KEYS: Partial<Record<(typeof COPIED_TABLES)[number], string[]>> = {
  image_variants: ["image_id", "format", "width"],
  image_references: ["post_id", "image_id"],
  page_image_references: ["page", "image_id"],
  analytics_counts: ["day", "dimension", "key"],
  newsletter_recipients: ["mailing_id", "subscriber_id"],
  import_chunks: ["import_id", "seq"],
};
const keyOf = (table: (typeof COPIED_TABLES)[number], firstColumn: string) => COMPOUND_KEYS[table] ?? [firstColumn];

/**
 * Tables deliberately not copied: short-lived state (sign-in throttling
 * counters, setup tokens of a site that has no administrator, invitation and
 * share links that live a day or a week) and the content
 * version counter, which the target's migration created. Kysely's
 * migration bookkeeping is not listed: introspection leaves it out, and the
 * target has its own, written when it was migrated.
 */
export const SKIPPED_TABLES = [
  "rate_limits",
  "setup_tokens",
  "admin_invites",
  "share_links",
  "content_version",
  // The analytics' salt, today's visitor hashes and per-address tallies (ADR 056): short-lived, never past their day.
  "analytics_salts",
  "analytics_visitor_hashes",
  "analytics_addresses",
  "analytics_held_keys",
  // The throttles' hashing secret (PostgreSQL without TOTP_ENCRYPTION_KEY): the target makes its own.
  "throttle_secrets",
  // Share cards (ADR 073): pictures made from the content, drawn again the first time a page names one.
  "share_cards",
  // Off-site backups' last attempt (ADR 076): the target's own uploads start afresh.
  "backup_status",
] as const;

/**
 * SQLite's index of the posts' titles (migration 009, ADR 030): an FTS5
 * table, the tables it keeps its index in, and the posts' sort keys beside
 * it. Not copied: a SQLite target's triggers index each post as it is
 * copied in; PostgreSQL keeps the same index as an ordinary index of the
 * posts table.
 */
export const SQLITE_INDEX_TABLES = [
  "posts_title_search",
  "posts_title_search_config",
  "posts_title_search_data",
  "posts_title_search_docsize",
  "posts_title_search_idx",
  "posts_title_search_keys",
  // The full-text search index (migration 017, ADR 042): FTS5 and its tables.
  "posts_search",
  "posts_search_config",
  "posts_search_data",
  "posts_search_docsize",
  "posts_search_idx",
] as const;

/**
 * PostgreSQL's full-text search index (migration 017, ADR 042): the posts'
 * tsvectors, written by a trigger on posts as each is copied in. Not copied.
 */
export const POSTGRES_INDEX_TABLES = ["posts_search"] as const;

const BATCH_ROWS = 100;

export class CopyError extends Error {
  override name = "CopyError";
}

/**
 * Copies every row of a site's data from one database to another (for
 * example a SQLite file into a new PostgreSQL database). Both must be migrated
 * to the same version; the target must hold none of the copied data yet. The
 * copy is one transaction on the target: it lands whole or not at all.
 */
export async function copyDatabase(from: Connection, to: Connection): Promise<Record<string, number>> {
  const sourceTables = new Set((await from.db.introspection.getTables()).map((t) => t.name));
  const known: readonly string[] = [
    ...COPIED_TABLES,
    ...SKIPPED_TABLES,
    ...SQLITE_INDEX_TABLES,
    ...POSTGRES_INDEX_TABLES,
  ];
  const unknown = [...sourceTables].filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new CopyError(`The source has tables this version does not know how to copy: ${unknown.join(", ")}`);
  }

  for (const table of COPIED_TABLES) {
    if (table === MIGRATION_MADE_ROWS) continue;
    const row = await to.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow();
    if (Number(row.n) > 0) {
      throw new CopyError(`The target database already has data in ${table}; copy into a new, empty database.`);
    }
  }

  const counts: Record<string, number> = {};
  await to.db.transaction().execute(async (trx) => {
    let adminEmails: string[] = [];
    for (const table of COPIED_TABLES) {
      const columns = (await from.db.introspection.getTables()).find((t) => t.name === table)!.columns;
      let copied = 0;
      if (table === MIGRATION_MADE_ROWS) await trx.deleteFrom(table).execute();
      for (;;) {
        const rows = await keyOf(table, columns[0]!.name)
          .reduce((query, column) => query.orderBy(column as never), from.db.selectFrom(table).selectAll())
          .limit(BATCH_ROWS)
          .offset(copied)
          .execute();
        if (rows.length === 0) break;
        await trx
          .insertInto(table)
          .values(keptAsToday(table, rows, adminEmails))
          .execute();
        copied += rows.length;
        if (rows.length < BATCH_ROWS) break;
      }
      counts[table] = copied;
      if (table === "admin_users") {
        adminEmails = (await trx.selectFrom("admin_users").select("email").execute()).map((row) => row.email);
      }
    }
    // The source may predate migration 016 or hold rows written by hand (ADR 041).
    await fillCategorySlugs(trx);
    // A post called "search" from before migration 017 (ADR 042).
    await renameReservedSlugs(trx);
  });
  return counts;
}

/**
 * A source's rows as this version keeps them: a source written before
 * migration 025 (or by hand) may hold full client addresses and e-mails
 * strangers tried; sessions and the audit log take the networks instead.
 */
function keptAsToday<Row extends Record<string, unknown>>(table: string, rows: Row[], adminEmails: string[]): Row[] {
  if (table === "sessions") {
    return rows.map((row) => ({
      ...row,
      ip_address: clientNetwork(typeof row.ip_address === "string" ? row.ip_address : null),
    }));
  }
  if (table === "audit_log") return rows.map((row) => auditRowAsKept(row, adminEmails));
  return rows;
}
