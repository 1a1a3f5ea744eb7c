import { randomUUID } from "node:crypto";
import { EVENT_NAMES, isEventName, type EventName } from "~/lib/events";
import { WEBHOOK_LIMITS, type WebhookItem } from "~/lib/webhooks";
import type { Db } from "../db/db.server";
import { checkOutboundUrl, type OutboundOptions } from "../outbound/index.server";
import type { PageQuery } from "../platform/paging.server";
import { newWebhookSecret, sealWebhookSecret, siteKey } from "./secret.server";

/**
 * The webhooks an administrator added (ADR 068): a URL checked by the
 * outbound rules when it is saved, the events it takes, and a secret shown
 * once, in the answer that made it, and kept sealed with the site's key.
 */

export class WebhookError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

/** What adding a webhook answers on a site with no key to seal its secret with. */
const NO_KEY_MESSAGE =
  "Webhooks are not available on this site yet: whoever runs it must first set TOTP_ENCRYPTION_KEY, the same key on every app process.";

interface WebhookRow {
  id: string;
  url: string;
  events: string;
  created_at: string;
}

/** The stored event names, known ones only (a newer version's names are dropped, not shown). */
export function eventsOf(stored: string): EventName[] {
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed) ? parsed.filter((e): e is EventName => typeof e === "string" && isEventName(e)) : [];
  } catch {
    return [];
  }
}

const itemOf = (row: WebhookRow): WebhookItem => ({
  id: row.id,
  url: row.url,
  events: eventsOf(row.events),
  createdAt: row.created_at,
});

/** Adds a webhook; its secret is in this answer only. 400: the URL or events; 409: too many, or no key. */
export async function createWebhook(
  db: Db,
  input: { url: string; events: string[] },
  outbound: OutboundOptions = {},
): Promise<WebhookItem & { secret: string }> {
  const url = input.url.trim();
  const check = await checkOutboundUrl(url, outbound);
  if (!check.ok) throw new WebhookError(400, check.reason);
  const events = EVENT_NAMES.filter((event) => input.events.includes(event));
  if (events.length === 0 || events.length !== new Set(input.events).size) {
    throw new WebhookError(400, `Choose one or more events of ${EVENT_NAMES.join(", ")}`);
  }
  const key = siteKey();
  if (!key) throw new WebhookError(409, NO_KEY_MESSAGE);
  const { n } = await db
    .selectFrom("webhooks")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirstOrThrow();
  if (Number(n) >= WEBHOOK_LIMITS.webhooks) {
    throw new WebhookError(409, `A site keeps at most ${WEBHOOK_LIMITS.webhooks} webhooks: delete one first`);
  }
  const secret = newWebhookSecret();
  const row = { id: randomUUID(), url, events: JSON.stringify(events), created_at: new Date().toISOString() };
  await db
    .insertInto("webhooks")
    .values({ ...row, secret: sealWebhookSecret(secret, key) })
    .execute();
  return { ...itemOf(row), secret };
}

/** The webhooks, oldest first, paged like the other admin lists. */
export async function listWebhooks(db: Db, { limit, offset }: PageQuery) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom("webhooks")
      .select(["id", "url", "events", "created_at"])
      .orderBy("created_at")
      .orderBy("id")
      .limit(limit)
      .offset(offset)
      .execute(),
    db
      .selectFrom("webhooks")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { webhooks: rows.map(itemOf), total: Number(count.n) };
}

export async function getWebhook(db: Db, id: string): Promise<WebhookItem | undefined> {
  const row = await db
    .selectFrom("webhooks")
    .select(["id", "url", "events", "created_at"])
    .where("id", "=", id)
    .executeTakeFirst();
  return row && itemOf(row);
}

/** Deletes a webhook and its deliveries (queued retries then find nothing to send); its URL, or undefined. */
export async function deleteWebhook(db: Db, id: string): Promise<string | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("webhooks").select("url").where("id", "=", id).executeTakeFirst();
    if (!row) return undefined;
    await trx.deleteFrom("webhook_deliveries").where("webhook_id", "=", id).execute();
    await trx.deleteFrom("webhooks").where("id", "=", id).execute();
    return row.url;
  });
}
