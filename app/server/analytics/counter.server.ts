import { createHash } from "node:crypto";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { getConfig } from "../platform/config.server";
import {
  describeView,
  hostOfUrl,
  isPageAnswer,
  mayBeView,
  OTHER,
  pagePathOf,
  requestHostOf,
  UNKNOWN,
  VIEW_LIMITS,
} from "./views.server";

/**
 * The process's counts since its last write (ADR 056), in memory: nothing is
 * written per request. The write (store.server.ts) takes them every few
 * seconds and at shutdown.
 *
 * Bounded however many requests come: at most `pendingKeys` distinct keys
 * per dimension (a new key past it is counted as "(other)"), `pendingMarks`
 * visitor marks (past it a view still counts, its visitor no longer) and
 * `pendingConversions` contact messages between two writes.
 *
 * A visitor is the hash of the day's salt, the client's address and its
 * User-Agent. The salt is the database's (shared by every process) and kept
 * here only for its day; a view counted before this process has read the
 * day's salt keeps the address and User-Agent in memory until the next
 * write hashes them. Neither is ever written.
 */

export const COUNTER_LIMITS = {
  pendingKeys: 1_000,
  pendingMarks: 20_000,
  pendingConversions: 1_000,
} as const;

export type Dimension = "page" | "source" | "campaign" | "device" | "conversion_page" | "conversion_source";
/** What a visitor is counted once under: the day ("all"), a source, a campaign, a device. */
export type MarkDimension = "all" | "source" | "campaign" | "device";

/** A visitor's identity before the day's salt is known: the write hashes it. */
export interface RawIdentity {
  address: string;
  userAgent: string;
}

export interface PendingConversion {
  identity: string | RawIdentity;
  page: string;
}

/** A visitor's marks: per dimension, the keys it was counted under ("all" has the one key ""). */
export type VisitorMarks = Map<MarkDimension, Set<string>>;

/** One day's counts since the last write. */
export class PendingDay {
  views = 0;
  /** Per dimension, per key: views (or messages for the conversion dimensions). */
  hits = new Map<Dimension, Map<string, number>>();
  /** Per visitor identity (a hash, or raw), the marks it earned. */
  marks = new Map<string | RawIdentity, VisitorMarks>();
  /**
   * Each visitor's identity by address, then User-Agent, so that one
   * visitor's views share one entry and one hash (SHA-256 is most of a new
   * visitor's cost); `identityCount` entries in all.
   */
  identities = new Map<string, Map<string, string | RawIdentity>>();
  identityCount = 0;
  markCount = 0;
  conversions: PendingConversion[] = [];
}

/** A visitor's hash: 128 bits of SHA-256 over the salt, the address and the User-Agent. */
export function visitorHash(salt: string, { address, userAgent }: RawIdentity): string {
  return createHash("sha256")
    .update(salt)
    .update("\0")
    .update(address)
    .update("\0")
    .update(userAgent)
    .digest("base64url")
    .slice(0, 22);
}

export const utcDay = (now: Date) => now.toISOString().slice(0, 10);

/** Today's UTC day, worked out once a day rather than once a view. */
let today = { day: "", endsAt: 0 };
function currentDay(): string {
  const now = Date.now();
  if (now >= today.endsAt || now < today.endsAt - 86_400_000) {
    const day = utcDay(new Date(now));
    today = { day, endsAt: Date.parse(`${day}T00:00:00Z`) + 86_400_000 };
  }
  return today.day;
}

export class AnalyticsCounter {
  private days = new Map<string, PendingDay>();
  /** The salts this process has read, by day: only the current day's is kept. */
  private salts = new Map<string, string>();
  /** Views and marks not counted since the last write because a bound was reached. */
  dropped = 0;

  /** The salt of `day`, for the write; forgets the salts of other days. */
  setSalt(day: string, salt: string): void {
    for (const known of this.salts.keys()) if (known !== day) this.salts.delete(known);
    this.salts.set(day, salt);
  }

  saltOf(day: string): string | undefined {
    return this.salts.get(day);
  }

  /** What the write took and has not yet committed: a lead's source is still looked up in it. */
  private writing: Map<string, PendingDay> | undefined;

  /** Takes what was counted, for the write; counting starts anew. The write calls `written` once done. */
  take(): Map<string, PendingDay> {
    const days = this.days;
    this.days = new Map();
    this.dropped = 0;
    this.writing = days;
    return days;
  }

  /** The write that took the counts committed them (or gave them up): they are in the database, or gone. */
  written(): void {
    this.writing = undefined;
  }

  private dayOf(day: string): PendingDay {
    let pending = this.days.get(day);
    if (!pending) this.days.set(day, (pending = new PendingDay()));
    return pending;
  }

  private identityOf(pending: PendingDay, day: string, address: string, userAgent: string): string | RawIdentity {
    const agent = userAgent.slice(0, VIEW_LIMITS.userAgent);
    let byAgent = pending.identities.get(address);
    const known = byAgent?.get(agent);
    if (known !== undefined) return known;
    const raw = { address, userAgent: agent };
    const salt = this.salts.get(day);
    const identity = salt === undefined ? raw : visitorHash(salt, raw);
    if (pending.identityCount < COUNTER_LIMITS.pendingMarks) {
      if (!byAgent) pending.identities.set(address, (byAgent = new Map<string, string | RawIdentity>()));
      byAgent.set(agent, identity);
      pending.identityCount++;
    }
    return identity;
  }

  /** Counts a view under a key of a dimension; answers the key counted (OTHER past the bound). */
  private hit(pending: PendingDay, dimension: Dimension, key: string): string {
    let keys = pending.hits.get(dimension);
    if (!keys) pending.hits.set(dimension, (keys = new Map<string, number>()));
    const hits = keys.get(key);
    if (hits !== undefined) {
      keys.set(key, hits + 1);
      return key;
    }
    const counted = keys.size < COUNTER_LIMITS.pendingKeys ? key : OTHER;
    keys.set(counted, (keys.get(counted) ?? 0) + 1);
    return counted;
  }

  /** A visitor's first marks: kept only while there is room for another mark, so the Map stays bounded. */
  private newMarks(pending: PendingDay, identity: string | RawIdentity): VisitorMarks {
    const marks: VisitorMarks = new Map();
    if (pending.markCount < COUNTER_LIMITS.pendingMarks) pending.marks.set(identity, marks);
    return marks;
  }

  private mark(pending: PendingDay, marks: VisitorMarks, dimension: MarkDimension, key: string): void {
    let keys = marks.get(dimension);
    if (keys?.has(key)) return;
    if (pending.markCount >= COUNTER_LIMITS.pendingMarks) {
      this.dropped++;
      return;
    }
    if (!keys) marks.set(dimension, (keys = new Set()));
    keys.add(key);
    pending.markCount++;
  }

  /**
   * The marks a visitor earned in this process and not yet committed to the
   * database, if any (a lead's source, visit.server.ts): counted since the
   * last write, or taken by the write in progress.
   */
  pendingMarksOf(day: string, address: string, userAgent: string): VisitorMarks | undefined {
    const agent = userAgent.slice(0, VIEW_LIMITS.userAgent);
    let merged: VisitorMarks | undefined;
    // Both: a view taken by the write and a later one counted since have their own marks.
    for (const days of [this.writing, this.days]) {
      const pending = days?.get(day);
      const identity = pending?.identities.get(address)?.get(agent);
      const marks = identity === undefined ? undefined : pending!.marks.get(identity);
      if (!marks) continue;
      merged ??= new Map();
      for (const [dimension, keys] of marks)
        merged.set(dimension, new Set([...(merged.get(dimension) ?? []), ...keys]));
    }
    return merged;
  }

  /** Counts one view of the page `url` (path and query as sent). */
  recordView(url: string, headers: IncomingHttpHeaders, address: string, siteHost: string | null, now?: Date): void {
    const view = describeView(url, headers, siteHost);
    const day = now ? utcDay(now) : currentDay();
    const pending = this.dayOf(day);
    const identity = this.identityOf(pending, day, address, headers["user-agent"] ?? "");
    const marks = pending.marks.get(identity) ?? this.newMarks(pending, identity);
    pending.views++;
    this.hit(pending, "page", view.path);
    this.mark(pending, marks, "all", "");
    this.mark(pending, marks, "device", this.hit(pending, "device", view.device));
    if (view.source !== null) this.mark(pending, marks, "source", this.hit(pending, "source", view.source));
    if (view.campaign !== null) this.mark(pending, marks, "campaign", this.hit(pending, "campaign", view.campaign));
  }

  /**
   * Counts a contact message: the page it was sent from (its Referer, when
   * this site's) and its sender's identity, whose source the write looks up
   * among the day's visitor marks.
   */
  recordConversion(
    client: { address: string; userAgent: string; referer: string | undefined; host: string | undefined },
    siteHost: string | null,
    now?: Date,
  ): void {
    const day = now ? utcDay(now) : currentDay();
    const pending = this.dayOf(day);
    if (pending.conversions.length >= COUNTER_LIMITS.pendingConversions) {
      this.dropped++;
      return;
    }
    pending.conversions.push({
      identity: this.identityOf(pending, day, client.address, client.userAgent),
      page: conversionPageOf(client.referer, client.host, siteHost),
    });
  }
}

/** The page a contact message was sent from: the path of its Referer when that is this site. */
export function conversionPageOf(
  referer: string | undefined,
  host: string | undefined,
  siteHost: string | null,
): string {
  const refererHost = hostOfUrl(referer);
  if (!referer || !refererHost) return UNKNOWN;
  if (refererHost !== siteHost && refererHost !== requestHostOf(host)) return UNKNOWN;
  const url = new URL(referer);
  return pagePathOf(url.pathname, url.searchParams);
}

/** The process's counter: the server's watch feeds it, a flusher writes it (scheduleAnalytics). */
export const analyticsCounter = new AnalyticsCounter();

/** Counts a stored contact message (the contact route), from its request and its client's address (`req.ip`). */
export function recordConversion(request: Request, address: string, counter: AnalyticsCounter = analyticsCounter) {
  const { headers } = request;
  counter.recordConversion(
    {
      address,
      userAgent: headers.get("user-agent") ?? "",
      referer: headers.get("referer") ?? undefined,
      host: headers.get("host") ?? undefined,
    },
    hostOfUrl(getConfig().siteUrl),
  );
}

/**
 * The watch in front of every answer, cache hits included (server/app.ts):
 * a GET that may be a view (views.server.ts mayBeView) is counted once its
 * answer has ended as a public page. `clientAddress` is the request's address
 * as Express's `req.ip` gives it (behind a trusted proxy, the client's).
 */
export function analyticsWatch({
  clientAddress,
  siteUrl,
  counter = analyticsCounter,
}: {
  clientAddress: (req: IncomingMessage) => string;
  siteUrl: string;
  counter?: AnalyticsCounter;
}) {
  const siteHost = hostOfUrl(siteUrl);
  // One `finish` listener for every answer, no closure made per request: Node calls it on the response, which knows its request.
  function countIfPage(this: ServerResponse) {
    if (isPageAnswer(this))
      counter.recordView(this.req.url ?? "/", this.req.headers, clientAddress(this.req), siteHost);
  }
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    if (req.method === "GET" && mayBeView(req.headers)) res.on("finish", countIfPage);
    next();
  };
}
