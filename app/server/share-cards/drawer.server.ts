import { parseImageVariantPath } from "~/lib/images";
import type { Db } from "../db/db.server";
import { findImageVariant } from "../images/index.server";
import { WorkerProcess } from "../platform/worker-process.server";
import type { CardDrawing } from "./draw.server";
import type { ShareCardSubject } from "./subject.server";

/**
 * Where cards are drawn (ADR 073): in a process of their own, started when a
 * card is due and stopped soon after, as the markdown renderer is. libvips
 * and Pango keep tens of MB of fonts, glyphs and buffers once they have
 * drawn, which the site's 200 MB per process has no room for; the drawer
 * gets a small heap and no environment of the site's. Without a worker file
 * (tests of the sources), cards are drawn here, one at a time.
 */

const DEADLINE_MS = 20_000;
const DRAWER_HEAP_MB = 64;

let workerFile: string | undefined;
let drawer: WorkerProcess | undefined;
let local: Promise<unknown> = Promise.resolve();

export function enableShareCardWorker(file: string): void {
  workerFile = file;
}

/** What crosses to the drawer: JSON, so a photo's bytes travel as base64. */
export type DrawerJob = Exclude<CardDrawing, { kind: "photo" }> | { kind: "photo"; base64: string };

async function draw(drawing: CardDrawing): Promise<Buffer> {
  if (!workerFile) {
    const run = local.then(async () => (await import("./draw.server")).drawCard(drawing));
    local = run.catch(() => undefined);
    return run;
  }
  drawer ??= new WorkerProcess({ file: workerFile, heapMb: DRAWER_HEAP_MB });
  const job: DrawerJob =
    drawing.kind === "photo" ? { kind: "photo", base64: Buffer.from(drawing.bytes).toString("base64") } : drawing;
  const result = await drawer.run<string>(job, DEADLINE_MS);
  return Buffer.from(result, "base64");
}

/**
 * The card's JPEG; undefined when its header image is gone (the page names
 * another card on its next render).
 */
export async function drawShareCard(db: Db, subject: ShareCardSubject): Promise<Buffer | undefined> {
  if (subject.kind === "text") return draw(subject);
  const variant = parseImageVariantPath(subject.image);
  const stored = variant && (await findImageVariant(db, variant.id, variant.width));
  return stored ? draw({ kind: "photo", bytes: stored.bytes }) : undefined;
}

/** Stops the drawer's process (shutdown). */
export async function closeShareCardWorker(): Promise<void> {
  await drawer?.close();
  drawer = undefined;
}
