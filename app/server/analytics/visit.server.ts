import type { Db } from "../db/db.server";
import { getConfig } from "../platform/config.server";
import { analyticsCounter, conversionPageOf, utcDay, visitorHash, type AnalyticsCounter } from "./counter.server";
import { DIRECT, hostOfUrl, OTHER, UNKNOWN, VIEW_LIMITS } from "./views.server";

/**
 * Where a visitor's visit came from, for a lead (ADR 070): the source and
 * campaign this visitor's views were counted under today, by the analytics'
 * own rule (the referring host, the utm_source, or direct), looked up by the
 * visitor's hash under the day's salt, as the conversions' source is.
 * Views this process has not written yet are looked up in memory. Another
 * site's source wins over "direct"; a client that showed no page today (a
 * script posting to the API) came "direct". Nothing about the visitor is
 * written here.
 */

interface Visit {
  source: string;
  campaign: string | null;
}

const SOURCE_ROWS = 20;

export async function visitOf(
  db: Db,
  client: { address: string; userAgent: string },
  counter: AnalyticsCounter = analyticsCounter,
  now = new Date(),
): Promise<Visit> {
  const day = utcDay(now);
  const userAgent = client.userAgent.slice(0, VIEW_LIMITS.userAgent);
  const sources: string[] = [];
  const campaigns: string[] = [];
  const pending = counter.pendingMarksOf(day, client.address, userAgent);
  sources.push(...(pending?.get("source") ?? []));
  campaigns.push(...(pending?.get("campaign") ?? []));

  const salt =
    counter.saltOf(day) ??
    (await db.selectFrom("analytics_salts").select("salt").where("day", "=", day).executeTakeFirst())?.salt;
  if (salt !== undefined) {
    const rows = await db
      .selectFrom("analytics_visitor_hashes")
      .select(["dimension", "key"])
      .where("day", "=", day)
      .where("hash", "=", visitorHash(salt, { address: client.address, userAgent }))
      .where("dimension", "in", ["source", "campaign"])
      .orderBy("key")
      .limit(SOURCE_ROWS)
      .execute();
    for (const row of rows) (row.dimension === "source" ? sources : campaigns).push(row.key);
  }
  return {
    source: sources.find((key) => key !== DIRECT && key !== OTHER) ?? DIRECT,
    campaign: campaigns.find((key) => key !== OTHER) ?? null,
  };
}

export interface LeadOrigin extends Visit {
  /** The page of this site the form was sent from (its Referer), or null when it does not say. */
  sourcePage: string | null;
}

/** Where a contact message came from: its page and its sender's visit (the contact form, ADR 070). */
export async function leadOriginOf(db: Db, request: Request, clientAddress: string): Promise<LeadOrigin> {
  const { headers } = request;
  const page = conversionPageOf(
    headers.get("referer") ?? undefined,
    headers.get("host") ?? undefined,
    hostOfUrl(getConfig().siteUrl),
  );
  const visit = await visitOf(db, { address: clientAddress, userAgent: headers.get("user-agent") ?? "" });
  return { sourcePage: page === UNKNOWN ? null : page, ...visit };
}
