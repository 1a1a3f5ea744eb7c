import type { Db } from "../db/db.server";

/**
 * A mailing's per-recipient rows are what makes its sending resumable; once
 * it is done for 30 days they are of no more use (its counts stay on the
 * mailing), so the table holds only recent mailings' rows.
 */
const RECIPIENTS_KEPT_DAYS = 30;

export async function pruneMailingRecipients(db: Db, now = Date.now()): Promise<number> {
  const before = new Date(now - RECIPIENTS_KEPT_DAYS * 24 * 60 * 60_000).toISOString();
  const result = await db
    .deleteFrom("newsletter_recipients")
    .where("mailing_id", "in", (eb) =>
      eb.selectFrom("newsletter_mailings").select("id").where("status", "=", "done").where("finished_at", "<", before),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
