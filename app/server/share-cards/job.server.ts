import { defineJob } from "../jobs/index.server";
import { storeShareCard, type CardOrder } from "./store.server";

/**
 * The job that draws a card (ADR 073), off every request's path: queued
 * once per card (its idempotency key is the card's), idempotent (a stored
 * card is not drawn again). A draw takes about a tenth of a second.
 */
export const renderCard = defineJob<CardOrder>("share-card.render", (order, { db }) => storeShareCard(db, order), {
  maxAttempts: 3,
  timeoutMs: 30_000,
});
