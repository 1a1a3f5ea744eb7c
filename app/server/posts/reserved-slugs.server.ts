import type { Kysely, Transaction } from "kysely";
import { RESERVED_SLUGS } from "~/lib/post-rules";
import type { Database } from "../db/schema.server";

/**
 * A post whose slug is a route of the blog's own (/blog/search) gets the
 * first free slug of `search-post`, `search-post-2`, ...: its address showed
 * the search page anyway (ADR 042). For migration 017 and for rows brought
 * from elsewhere (a restored backup, the SQLite to PostgreSQL copy), which
 * may come from a version before the rule. Run it inside the caller's
 * transaction.
 */
export async function renameReservedSlugs(db: Kysely<Database> | Transaction<Database>): Promise<void> {
  for (const reserved of RESERVED_SLUGS) {
    const taken = await db.selectFrom("posts").select("id").where("slug", "=", reserved).executeTakeFirst();
    if (!taken) continue;
    for (let n = 1; ; n++) {
      const slug = n === 1 ? `${reserved}-post` : `${reserved}-post-${n}`;
      const clash = await db.selectFrom("posts").select("id").where("slug", "=", slug).executeTakeFirst();
      if (clash) continue;
      await db.updateTable("posts").set({ slug }).where("id", "=", taken.id).execute();
      break;
    }
  }
}
