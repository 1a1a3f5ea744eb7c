/** The webhooks domain's interface: what routes, server/ and backup may use (README.md here). */
export {
  attemptDelivery,
  createEventDeliveries,
  DELIVERIES_PER_WEBHOOK,
  listDeliveries,
  MAX_ATTEMPTS,
  redeliver,
  runDeliveryJob,
  sendTest,
} from "./deliveries.server";
export { init } from "./queue.server";
export { webhookSecretOpens } from "./secret.server";
export { createWebhook, deleteWebhook, getWebhook, listWebhooks, WebhookError } from "./webhooks.server";
