/**
 * Webhooks' names and bounds (ADR 068), shared by the server, which checks
 * them, and the Webhooks screen, which offers them.
 */
import type { EventName } from "./events";

/** The event of "Send test": sent to one webhook, whatever events it takes. */
export const TEST_EVENT = "webhook.test";

/** A delivery's state: retrying (or not tried yet), delivered (2xx), or failed after its last attempt. */
export type DeliveryStatus = "pending" | "delivered" | "failed";

export const WEBHOOK_LIMITS = {
  /** The longest URL (the outbound domain's limit). */
  url: 2048,
  /** Webhooks a site keeps at most. */
  webhooks: 20,
} as const;

/** A webhook as the API and the screen show it: never its secret. */
export interface WebhookItem {
  id: string;
  url: string;
  events: EventName[];
  createdAt: string;
}

/** One delivery as the API and the screen's log show it, newest first. */
export interface DeliveryItem {
  id: string;
  event: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
}
