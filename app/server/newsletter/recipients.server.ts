import type { Db } from "../db/db.server";

/**
 * A mailing's recipients and their sends (ADR 072): the next ones to send,
 * and each move of a recipient from one status to another with the
 * mailing's counts, in one transaction, by an UPDATE that only one process
 * can win.
 */

export interface Recipient {
  subscriberId: string;
  email: string | null;
  status: string | null;
}

export async function nextRecipients(db: Db, mailingId: string, size: number): Promise<Recipient[]> {
  return db
    .selectFrom("newsletter_recipients as r")
    .leftJoin("subscribers as s", "s.id", "r.subscriber_id")
    .select(["r.subscriber_id as subscriberId", "s.email as email", "s.status as status"])
    .where("r.mailing_id", "=", mailingId)
    .where("r.status", "=", "pending")
    .orderBy("r.subscriber_id")
    .limit(size)
    .execute();
}

type Status = "pending" | "sent" | "failed" | "skipped";

/**
 * Moves a recipient from `from` to `to` and the mailing's counts with it;
 * false when its status was not `from` (another run moved it). A send is
 * recorded only while the subscriber is still confirmed: one who left or
 * was removed since the batch began is not sent to.
 */
export async function mark(
  db: Db,
  mailingId: string,
  subscriberId: string,
  from: "pending" | "sent",
  to: Status,
  error?: string,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const changed = await trx
      .updateTable("newsletter_recipients")
      .set({
        status: to,
        sent_at: to === "sent" ? new Date().toISOString() : null,
        error: error ? error.slice(0, 300) : null,
      })
      .where("mailing_id", "=", mailingId)
      .where("subscriber_id", "=", subscriberId)
      .where("status", "=", from)
      .$if(to === "sent", (qb) =>
        qb.where((eb) =>
          eb.exists(
            eb.selectFrom("subscribers").select("id").where("id", "=", subscriberId).where("status", "=", "confirmed"),
          ),
        ),
      )
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) === 0) return false;
    await trx
      .updateTable("newsletter_mailings")
      .set((eb) => ({
        sent: eb("sent", "+", (to === "sent" ? 1 : 0) - (from === "sent" ? 1 : 0)),
        failed: eb("failed", "+", to === "failed" ? 1 : 0),
      }))
      .where("id", "=", mailingId)
      .execute();
    return true;
  });
}

/** Notes why a recorded send is in doubt, leaving it recorded. */
export async function noteDoubt(db: Db, mailingId: string, subscriberId: string, error: string): Promise<void> {
  await db
    .updateTable("newsletter_recipients")
    .set({ error: error.slice(0, 300) })
    .where("mailing_id", "=", mailingId)
    .where("subscriber_id", "=", subscriberId)
    .execute();
}

/** Ends a mailing: whoever is still pending is skipped (the post was unpublished or its option turned off). */
export async function finishMailing(db: Db, mailingId: string, skipRest = false): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (skipRest)
      await trx
        .updateTable("newsletter_recipients")
        .set({ status: "skipped" })
        .where("mailing_id", "=", mailingId)
        .where("status", "=", "pending")
        .execute();
    await trx
      .updateTable("newsletter_mailings")
      .set({ status: "done", finished_at: new Date().toISOString() })
      .where("id", "=", mailingId)
      .where("status", "=", "sending")
      .execute();
  });
}
