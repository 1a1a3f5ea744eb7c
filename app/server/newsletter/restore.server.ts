import { isValidEmail } from "~/lib/email";
import { isRecordId } from "../db/ids.server";

/**
 * What a restore checks of the newsletter's rows (ADR 047: it trusts nothing
 * it did not write). A subscriber is an address the site would have taken
 * (lower-cased, at most 320 characters), one of the three statuses and two
 * consents, with the dates its status implies; a mailing is one of its two
 * statuses with counts that add up. Kept beside the newsletter's own code, so
 * that a rule changed there is changed here too.
 */

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** A date as the site writes one: Date#toISOString(). */
const isInstant = (value: unknown): value is string =>
  typeof value === "string" && ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value));
const isInstantOrNull = (value: unknown) => value === null || value === undefined || isInstant(value);
const isCount = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value) && value >= 0;

const STATUSES = new Set(["pending", "confirmed", "unsubscribed"]);
const CONSENTS = new Set(["form", "import"]);

/** A subscriber as the site keeps one: a confirmed one has its confirmation's date, an unsubscribed one its leaving's. */
export function isSubscriberRow(row: Record<string, unknown>): boolean {
  const { id, email, status, consent } = row;
  return (
    typeof id === "string" &&
    isRecordId(id) &&
    typeof email === "string" &&
    email === email.toLowerCase() &&
    isValidEmail(email) &&
    typeof status === "string" &&
    STATUSES.has(status) &&
    typeof consent === "string" &&
    CONSENTS.has(consent) &&
    isInstant(row.created_at) &&
    isInstantOrNull(row.confirm_sent_at) &&
    isInstantOrNull(row.confirmed_at) &&
    isInstantOrNull(row.unsubscribed_at) &&
    (status !== "confirmed" || isInstant(row.confirmed_at)) &&
    (status !== "unsubscribed" || isInstant(row.unsubscribed_at))
  );
}

/** A mailing as the site keeps one: of a post, sending or done (then with its end), sent and failed within its recipients. */
export function isMailingRow(row: Record<string, unknown>): boolean {
  const { id, post_id: postId, status, recipients, sent, failed, finished_at: finished } = row;
  return (
    typeof id === "string" &&
    isRecordId(id) &&
    typeof postId === "string" &&
    isRecordId(postId) &&
    (status === "sending" || status === "done") &&
    isCount(recipients) &&
    isCount(sent) &&
    isCount(failed) &&
    sent + failed <= recipients &&
    isInstant(row.created_at) &&
    (status === "done" ? isInstant(finished) : finished === null || finished === undefined)
  );
}
