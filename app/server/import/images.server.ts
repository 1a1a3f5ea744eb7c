import { createHash } from "node:crypto";
import { MAX_IMAGE_BYTES } from "~/lib/images";
import type { Db } from "../db/db.server";
import { setTimeout as sleep } from "node:timers/promises";
import { imageWork, storeImage } from "../images/index.server";
import { OutboundError, outboundFetch } from "../outbound/index.server";

/**
 * An imported post's images, fetched from the old site and stored as
 * uploads (ADR 074), under the outbound rules (ADR 068): https to public
 * addresses only unless the operator allows private ones, the address
 * checked as the connection is made, at most the upload limit read, and a
 * deadline per image. Each URL fetched is remembered (`import_images`), so
 * an import resumed after a restart, or a second import, fetches it no more.
 * An image that cannot be fetched keeps its old URL and is reported.
 */

/** Images fetched for one post at most; the rest keep their old URLs and are reported. */
const MAX_IMAGES_PER_POST = 30;
const FETCH_TIMEOUT_MS = 8_000;
/** All of one post's images: what is left after it keeps its old URLs, so a run ends within its time-out. */
const POST_IMAGES_MS = 15_000;
/** Images fetched side by side for one post. */
const PARALLEL = 2;
/** A wait for the images' place when uploads hold it all. */
const BUSY_WAIT_MS = 250;

export type ImageOutcome = { ok: true; url: string } | { ok: false; url: string; reason: string };

const hashOf = (url: string) => createHash("sha256").update(url).digest("hex");

/** An image source as an absolute http(s) URL, resolved against the old site; undefined when it is none. */
function absoluteImageUrl(src: string, siteUrl: string | null): string | undefined {
  try {
    const url = siteUrl ? new URL(src, `${siteUrl}/`) : new URL(src);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

async function fetchOne(db: Db, url: string, signal: AbortSignal): Promise<ImageOutcome> {
  const hash = hashOf(url);
  const known = await db
    .selectFrom("import_images")
    .select("image_url")
    .where("url_hash", "=", hash)
    .executeTakeFirst();
  if (known) return { ok: true, url: known.image_url };
  try {
    const answer = await outboundFetch(url, {
      timeoutMs: FETCH_TIMEOUT_MS,
      maxResponseBytes: MAX_IMAGE_BYTES + 1,
      signal,
      headers: { accept: "image/*" },
    });
    if (answer.status !== 200) return { ok: false, url, reason: `the old site answered ${answer.status}` };
    if (answer.truncated) return { ok: false, url, reason: `it is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB` };
    const stored = await storedInTurn(db, answer.body, signal);
    await db
      .insertInto("import_images")
      .values({ url_hash: hash, image_url: stored.url, created_at: new Date().toISOString() })
      .onConflict((oc) => oc.column("url_hash").doNothing())
      .execute();
    return { ok: true, url: stored.url };
  } catch (error) {
    if (error instanceof OutboundError) return { ok: false, url, reason: error.message };
    // storeImage's refusals (not an image, too many pixels) say what they are.
    return { ok: false, url, reason: error instanceof Error ? error.message : String(error) };
  }
}

/** The image stored with the uploads' own bound on images processed at once (the owner's uploads go first). */
async function storedInTurn(db: Db, bytes: Buffer, signal: AbortSignal) {
  for (;;) {
    const admission = imageWork.tryAdmit();
    if (admission) {
      try {
        return await admission.run(() => storeImage(db, bytes));
      } finally {
        admission.release();
      }
    }
    signal.throwIfAborted();
    await sleep(BUSY_WAIT_MS);
  }
}

/** Each source's outcome, by source as written in the body; at most MAX_IMAGES_PER_POST fetched. */
export async function fetchImages(
  db: Db,
  sources: string[],
  siteUrl: string | null,
  signal: AbortSignal,
): Promise<Map<string, ImageOutcome>> {
  const outcomes = new Map<string, ImageOutcome>();
  const queue = sources.slice();
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(POST_IMAGES_MS)]);
  const worker = async () => {
    for (let src = queue.shift(); src !== undefined; src = queue.shift()) {
      const url = absoluteImageUrl(src, siteUrl);
      if (!url) outcomes.set(src, { ok: false, url: src, reason: "its address is not an http(s) URL" });
      else if (deadline.aborted)
        outcomes.set(src, { ok: false, url, reason: `the post's images took longer than ${POST_IMAGES_MS / 1000} s` });
      else if (outcomes.size >= MAX_IMAGES_PER_POST)
        outcomes.set(src, { ok: false, url, reason: `the post has more than ${MAX_IMAGES_PER_POST} images` });
      else outcomes.set(src, await fetchOne(db, url, deadline));
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return outcomes;
}
