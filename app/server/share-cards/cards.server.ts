import { parseImageVariantPath } from "~/lib/images";
import type { Db } from "../db/db.server";
import { imageVariantExists } from "../images/index.server";
import { getLogger } from "../platform/logger.server";
import { enqueue, isJobWaiting, retryJob } from "../jobs/index.server";
import { renderCard } from "./job.server";
import { readShareCard, shareCardExists, type CardOrder } from "./store.server";
import { CARD_HEIGHT, CARD_WIDTH, shareCardKey, shareCardPath, type ShareCardSubject } from "./subject.server";

/**
 * How a page gets its card (ADR 073). A page names its card while it
 * renders (a page cache miss): a card not yet stored is queued for the jobs
 * (one job per card, however many processes ask; a job that failed is
 * queued again), and its URL is named at once; the image route waits the
 * few moments the job takes. Each process remembers the cards it has seen
 * stored, so a page rendered again costs no query.
 */

export interface ShareCard {
  url: string;
  width: number;
  height: number;
}

const REMEMBERED = 2_000;
const stored = new Set<string>();

const renderJobKey = (key: string) => `share-card:${key}`;

/**
 * The card the page at `page` (its path) shows for this subject; queued if
 * it was never drawn, or, when it cannot be (a crop of a header image that
 * is gone), the `fallback` subject's card. Undefined (the page goes without
 * a picture, never without itself) when the database could not be asked.
 */
export async function shareCardFor(
  db: Db,
  page: string,
  subject: ShareCardSubject,
  fallback?: ShareCardSubject,
): Promise<ShareCard | undefined> {
  const key = shareCardKey(page, subject);
  try {
    if (!stored.has(key)) {
      if (await shareCardExists(db, key)) remember(key);
      else if (fallback && !(await canDraw(db, subject))) return await shareCardFor(db, page, fallback);
      else await queueCard(db, key, { page, subject, namedAt: new Date().toISOString() });
    }
  } catch (error) {
    getLogger().warn({ err: error, page }, "share card not named");
    return undefined;
  }
  return { url: shareCardPath(key), width: CARD_WIDTH, height: CARD_HEIGHT };
}

/** Whether a card's job would have what it draws: a crop needs its image stored. */
async function canDraw(db: Db, subject: ShareCardSubject): Promise<boolean> {
  if (subject.kind === "text") return true;
  const variant = parseImageVariantPath(subject.image);
  return variant !== undefined && (await imageVariantExists(db, variant.id, variant.width));
}

function remember(key: string): void {
  stored.add(key);
  if (stored.size > REMEMBERED) stored.delete(stored.values().next().value!);
}

async function queueCard(db: Db, key: string, order: CardOrder): Promise<void> {
  const { id, created } = await enqueue(db, renderCard, order, { idempotencyKey: renderJobKey(key) });
  if (!created) await retryJob(db, id);
}

const WAIT_MS = 10_000;
const WAIT_STEP_MS = 200;
/** Requests one process lets wait for a card at once; more are told to come back. */
const MAX_WAITING = 16;
let waiting = 0;

/**
 * A card its job is still drawing: waited for (at most WAIT_MS) while the
 * job is queued or running. "busy" when too many requests wait already, or
 * the job is still at it at the deadline; undefined for a card no job will
 * draw.
 */
export async function awaitShareCard(db: Db, key: string): Promise<Uint8Array | "busy" | undefined> {
  // The job may have stored the card and ended since the caller's read: read once more.
  if (!(await isJobWaiting(db, renderJobKey(key)))) return readShareCard(db, key);
  if (waiting >= MAX_WAITING) return "busy";
  waiting++;
  try {
    const deadline = Date.now() + WAIT_MS;
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
      const bytes = await readShareCard(db, key);
      if (bytes) return bytes;
      if (!(await isJobWaiting(db, renderJobKey(key)))) return readShareCard(db, key);
    }
    // Still being drawn (a slow machine, a queue of cards): come back, rather than a 404 a crawler keeps.
    return "busy";
  } finally {
    waiting--;
  }
}
