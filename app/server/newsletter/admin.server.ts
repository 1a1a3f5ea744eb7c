import { containsPattern } from "../db/like.server";
import { sql, type SqlBool } from "kysely";
import { z } from "zod";
import type { Db } from "../db/db.server";
import { pagedList, type PageQuery, searchText } from "../platform/paging.server";
import { type Subscriber, toSubscriber } from "./subscribers.server";

/**
 * What the owner reads of the newsletter (ADR 072): the subscribers, paged
 * and filtered by status and by text in the address, and the mailings with
 * their numbers.
 */

const STATUSES = ["pending", "confirmed", "unsubscribed"] as const;

/** GET /api/admin/subscribers (`limit`, `offset`) and the screen (`page`): `status` and `q` filter. */
export const subscriberList = pagedList({
  status: z.enum(STATUSES, { error: "status must be pending, confirmed or unsubscribed" }).optional(),
  q: searchText(200).optional(),
});

export type SubscriberQuery = PageQuery & { status?: (typeof STATUSES)[number]; q?: string };

export async function listSubscribers(
  db: Db,
  { status, q, limit, offset }: SubscriberQuery,
): Promise<{ subscribers: Subscriber[]; total: number }> {
  const filtered = db
    .selectFrom("subscribers")
    .$if(status !== undefined, (qb) => qb.where("status", "=", status!))
    .$if(Boolean(q?.trim()), (qb) =>
      qb.where(sql<SqlBool>`email like ${containsPattern(q!.trim().toLowerCase())} escape '\\'`),
    );
  const [rows, count] = await Promise.all([
    filtered.selectAll().orderBy("created_at", "desc").orderBy("id").limit(limit).offset(offset).execute(),
    filtered.select((eb) => eb.fn.countAll<string | number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { subscribers: rows.map(toSubscriber), total: Number(count.n) };
}

/** How many subscribers there are in each status: the screen's summary. */
export async function countSubscribers(db: Db): Promise<Record<(typeof STATUSES)[number], number>> {
  const rows = await db
    .selectFrom("subscribers")
    .select(["status", (eb) => eb.fn.countAll<string | number>().as("n")])
    .groupBy("status")
    .execute();
  const counts = { pending: 0, confirmed: 0, unsubscribed: 0 };
  for (const row of rows) counts[row.status] = Number(row.n);
  return counts;
}

export interface Mailing {
  id: string;
  postId: string;
  title: string;
  slug: string;
  status: "sending" | "done";
  recipients: number;
  sent: number;
  failed: number;
  createdAt: string;
  finishedAt: string | null;
}

/** The mailings, newest first, with their numbers. */
export async function listMailings(
  db: Db,
  { limit, offset }: PageQuery,
): Promise<{ mailings: Mailing[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom("newsletter_mailings as m")
      .innerJoin("posts as p", "p.id", "m.post_id")
      .select(["m.id", "m.post_id", "p.title", "p.slug", "m.status", "m.recipients", "m.sent", "m.failed"])
      .select(["m.created_at", "m.finished_at"])
      .orderBy("m.created_at", "desc")
      .orderBy("m.id")
      .limit(limit)
      .offset(offset)
      .execute(),
    db
      .selectFrom("newsletter_mailings")
      .select((eb) => eb.fn.countAll<string | number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    mailings: rows.map((row) => ({
      id: row.id,
      postId: row.post_id,
      title: row.title,
      slug: row.slug,
      status: row.status,
      recipients: Number(row.recipients),
      sent: Number(row.sent),
      failed: Number(row.failed),
      createdAt: row.created_at,
      finishedAt: row.finished_at,
    })),
    total: Number(count.n),
  };
}
