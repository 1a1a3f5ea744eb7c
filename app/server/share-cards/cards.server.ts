import type { Db } from "../db/db.server";
import { enqueue, isJobWaiting } from "../jobs/index.server";
import { renderCard } from "./job.server";
import { markShareCardSeen, readShareCard, shareCardSeenAt } from "./store.server";
import { CARD_HEIGHT, CARD_WIDTH, shareCardKey, shareCardPath, type ShareCardSubject } from "./subject.server";

/**
 * How a page gets its card (ADR 073). A page names its card while it
 * renders: a card not yet stored is queued for the jobs (one job per card,
 * however many processes ask), and its URL is named at once; the image
 * route waits the few moments the job takes. Each process remembers the
 * cards it has seen stored or queued today, so a page named again costs no
 * query; the first naming of a day marks the card seen.
 */

export interface ShareCard {
  url: string;
  width: number;
  height: number;
}

const REMEMBERED = 2_000;
const remembered = new Map<string, string>();
const today = () => new Date().toISOString().slice(0, 10);

const renderJobKey = (key: string) => `share-card:${key}`;

/** The card a page shows for this subject; queued if it was never drawn. */
export async function shareCardFor(db: Db, subject: ShareCardSubject): Promise<ShareCard> {
  const key = shareCardKey(subject);
  const day = today();
  if (remembered.get(key) !== day) {
    await markSeenOrQueue(db, key, subject, day);
    remembered.delete(key);
    remembered.set(key, day);
    if (remembered.size > REMEMBERED) remembered.delete(remembered.keys().next().value!);
  }
  return { url: shareCardPath(key), width: CARD_WIDTH, height: CARD_HEIGHT };
}

async function markSeenOrQueue(db: Db, key: string, subject: ShareCardSubject, day: string): Promise<void> {
  const seenAt = await shareCardSeenAt(db, key);
  if (seenAt === undefined) await enqueue(db, renderCard, { subject }, { idempotencyKey: renderJobKey(key) });
  else if (seenAt < day) await markShareCardSeen(db, key);
}

const WAIT_MS = 10_000;
const WAIT_STEP_MS = 200;
/** Requests one process lets wait for a card at once; more are told to come back. */
const MAX_WAITING = 16;
let waiting = 0;

/**
 * A card its job is still drawing: waited for (at most WAIT_MS) while the
 * job is queued or running. "busy" when too many requests wait already;
 * undefined for a card no job will draw.
 */
export async function awaitShareCard(db: Db, key: string): Promise<Uint8Array | "busy" | undefined> {
  if (!(await isJobWaiting(db, renderJobKey(key)))) return undefined;
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
    return undefined;
  } finally {
    waiting--;
  }
}
