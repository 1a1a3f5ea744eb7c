/**
 * The share cards' drawer in its own process (app/server/share-cards/drawer.server.ts):
 * built as build/server/share-card-worker.js beside the server's entry.
 * libvips keeps no cache of operations and uses one thread: a card at a time.
 * A warm-up is answered at once.
 */
import sharp from "sharp";
import type { WarmUp } from "~/server/platform/worker-process.server";
import type { DrawerJob } from "~/server/share-cards/drawer.server";
import { drawCard } from "~/server/share-cards/draw.server";

sharp.cache(false);
sharp.concurrency(1);

export default async function draw(job: DrawerJob | WarmUp): Promise<string> {
  if ("warmUp" in job) return "";
  const drawing = job.kind === "photo" ? { kind: "photo" as const, bytes: Buffer.from(job.base64, "base64") } : job;
  return (await drawCard(drawing)).toString("base64");
}
