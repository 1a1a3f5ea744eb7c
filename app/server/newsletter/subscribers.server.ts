import { randomUUID } from "node:crypto";
import type { Db } from "../db/db.server";
import { isRecordId } from "../db/ids.server";
import { emit, enqueue } from "../jobs/index.server";
import { confirmMailJob } from "./confirm-mail.server";

/**
 * The subscribers (ADR 072): a sign-up, its confirmation, an unsubscribe,
 * the owner's removal, and the pruning that keeps the table bounded.
 *
 * A sign-up is pending until the button behind its link is pressed; it gets
 * a confirmation e-mail at most once a day, decided by one conditional
 * UPDATE so parallel requests cannot send two; it expires 7 days after its
 * last e-mail. Strangers can add only pending rows, and at most
 * MAX_PENDING of them at a time; unsubscribed rows go 30 days later.
 */

const SUBSCRIBER_LIMITS = {
  /** Pending sign-ups from the form kept at once: past this, a new one is answered the same but not kept. */
  pending: 10_000,
  /** A confirmation link works this long after its e-mail; an unconfirmed sign-up then goes. */
  confirmDays: 7,
  /** One confirmation e-mail per address per this many hours. */
  confirmEveryHours: 24,
  /** Unsubscribed addresses are forgotten this long after. */
  unsubscribedDays: 30,
};

const DAY_MS = 24 * 60 * 60_000;
const hoursAgo = (hours: number, now: number) => new Date(now - hours * 60 * 60_000).toISOString();

export interface Subscriber {
  id: string;
  email: string;
  status: "pending" | "confirmed" | "unsubscribed";
  consent: "form" | "import";
  createdAt: string;
  confirmedAt: string | null;
  unsubscribedAt: string | null;
}

export const toSubscriber = (row: {
  id: string;
  email: string;
  status: Subscriber["status"];
  consent: Subscriber["consent"];
  created_at: string;
  confirmed_at: string | null;
  unsubscribed_at: string | null;
}): Subscriber => ({
  id: row.id,
  email: row.email,
  status: row.status,
  consent: row.consent,
  createdAt: row.created_at,
  confirmedAt: row.confirmed_at,
  unsubscribedAt: row.unsubscribed_at,
});

/** The stored form of an address: trimmed and lower-cased (one subscription however it is typed). */
export const storedEmail = (email: string): string => email.trim().toLowerCase();

/**
 * Asks for a subscription of `email` (already checked): a new address is
 * kept as pending, an unsubscribed one is pending again; either gets a
 * confirmation e-mail unless one went in the last day. A confirmed address
 * changes nothing. Answers whether a sign-up was started (for the analytics).
 */
export async function requestSubscription(db: Db, email: string, now = Date.now()): Promise<boolean> {
  const address = storedEmail(email);
  const stamp = new Date(now).toISOString();
  return db.transaction().execute(async (trx) => {
    let row = await trx
      .selectFrom("subscribers")
      .select(["id", "status"])
      .where("email", "=", address)
      .executeTakeFirst();
    if (!row) {
      const pending = await trx
        .selectFrom("subscribers")
        .select((eb) => eb.fn.countAll<string | number>().as("n"))
        .where("status", "=", "pending")
        .where("consent", "=", "form")
        .executeTakeFirstOrThrow();
      if (Number(pending.n) >= SUBSCRIBER_LIMITS.pending) return false;
      const id = randomUUID();
      const inserted = await trx
        .insertInto("subscribers")
        .values({ id, email: address, status: "pending", consent: "form", created_at: stamp })
        .onConflict((oc) => oc.column("email").doNothing())
        .executeTakeFirst();
      // Another request kept this address a moment ago: its e-mail is on its way.
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
      row = { id, status: "pending" };
    }
    if (row.status === "confirmed") return false;
    // One e-mail a day: the one request whose UPDATE changes the row sends it.
    const claimed = await trx
      .updateTable("subscribers")
      .set({ status: "pending", consent: "form", confirm_sent_at: stamp, confirmed_at: null, unsubscribed_at: null })
      .where("id", "=", row.id)
      .where("status", "!=", "confirmed")
      .where((eb) =>
        eb.or([
          eb("confirm_sent_at", "is", null),
          eb("confirm_sent_at", "<", hoursAgo(SUBSCRIBER_LIMITS.confirmEveryHours, now)),
        ]),
      )
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return false;
    await enqueue(
      trx,
      confirmMailJob,
      { subscriberId: row.id, sentAt: stamp },
      { idempotencyKey: `newsletter.confirm-mail:${row.id}:${stamp}` },
    );
    return true;
  });
}

/** "ready": the button may confirm it; "confirmed": the button just did. */
export type ConfirmOutcome = "ready" | "confirmed" | "already" | "expired" | "unsubscribed" | "not-found";

/** What the confirmation link's page shows before the button is pressed. */
export async function confirmationState(db: Db, id: string, now = Date.now()): Promise<ConfirmOutcome> {
  if (!isRecordId(id)) return "not-found";
  const row = await db
    .selectFrom("subscribers")
    .select(["status", "confirm_sent_at", "created_at"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) return "not-found";
  if (row.status === "confirmed") return "already";
  if (row.status === "unsubscribed") return "unsubscribed";
  const sent = Date.parse(row.confirm_sent_at ?? row.created_at);
  return now - sent > SUBSCRIBER_LIMITS.confirmDays * DAY_MS ? "expired" : "ready";
}

/** The button behind the confirmation link: confirms a pending sign-up within its 7 days, once. */
export async function confirmSubscription(db: Db, id: string, now = Date.now()): Promise<ConfirmOutcome> {
  if (!isRecordId(id)) return "not-found";
  return db.transaction().execute(async (trx) => {
    const state = await confirmationState(trx, id, now);
    if (state !== "ready") return state;
    const stamp = new Date(now).toISOString();
    const updated = await trx
      .updateTable("subscribers")
      .set({ status: "confirmed", confirmed_at: stamp })
      .where("id", "=", id)
      .where("status", "=", "pending")
      .returning(["email"])
      .executeTakeFirst();
    if (!updated) return "already";
    await emit(
      trx,
      "subscriber.confirmed",
      { id, email: updated.email },
      { idempotencyKey: `subscriber.confirmed:${id}:${stamp}` },
    );
    return "confirmed";
  });
}

/** The unsubscribe link (its page's button, or a mail client's one-click POST): at once, however often. */
export async function unsubscribe(db: Db, id: string, now = Date.now()): Promise<boolean> {
  if (!isRecordId(id)) return false;
  const row = await db.selectFrom("subscribers").select("status").where("id", "=", id).executeTakeFirst();
  if (!row) return false;
  if (row.status !== "unsubscribed")
    await db
      .updateTable("subscribers")
      .set({ status: "unsubscribed", unsubscribed_at: new Date(now).toISOString() })
      .where("id", "=", id)
      .where("status", "!=", "unsubscribed")
      .execute();
  return true;
}

export async function findSubscriber(db: Db, id: string): Promise<Subscriber | undefined> {
  if (!isRecordId(id)) return undefined;
  const row = await db.selectFrom("subscribers").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toSubscriber(row) : undefined;
}

/** The owner's removal: the address is forgotten at once (a mailing under way skips it). */
export async function removeSubscriber(db: Db, id: string): Promise<Subscriber | undefined> {
  if (!isRecordId(id)) return undefined;
  // One statement: of two removals at once, one removes it and the other finds nothing.
  const row = await db.deleteFrom("subscribers").where("id", "=", id).returningAll().executeTakeFirst();
  return row ? toSubscriber(row) : undefined;
}

/** Daily: unconfirmed sign-ups past their link's 7 days, unsubscribed addresses after 30. */
export async function pruneSubscribers(db: Db, now = Date.now()): Promise<number> {
  const expired = await db
    .deleteFrom("subscribers")
    .where("status", "=", "pending")
    .where((eb) =>
      eb(eb.fn.coalesce("confirm_sent_at", "created_at"), "<", hoursAgo(SUBSCRIBER_LIMITS.confirmDays * 24, now)),
    )
    .executeTakeFirst();
  const gone = await db
    .deleteFrom("subscribers")
    .where("status", "=", "unsubscribed")
    .where("unsubscribed_at", "<", hoursAgo(SUBSCRIBER_LIMITS.unsubscribedDays * 24, now))
    .executeTakeFirst();
  return Number(expired.numDeletedRows) + Number(gone.numDeletedRows);
}
