import { DEFAULT_ACKNOWLEDGEMENT, leadMail } from "~/content/leads";
import { mailboxOf } from "~/lib/email";
import { LEAD_LIMITS } from "~/lib/leads";
import type { Connection, Db } from "../db/db.server";
import { throttleKeyMaterial } from "../identity/index.server";
import { defineJob } from "../jobs/index.server";
import { getMailer, mailId } from "../mail/index.server";
import { getLogger } from "../platform/logger.server";
import { createThrottle, reserveAll, type Throttle } from "../platform/throttle.server";
import { readSiteSettings } from "../settings/index.server";

/**
 * The optional acknowledgement (ADR 070): when the owner turns it on, the
 * sender of each message that is not spam gets a "we received your message"
 * e-mail, its text the owner's, threaded under the message's notice. At most
 * one per address per hour, reserved before the message is stored, so the
 * form cannot be used to mail-bomb a stranger's address; the throttle keeps
 * a keyed hash of the address, never the address. Off by default.
 */

export interface AcknowledgementSetting {
  enabled: boolean;
  /** The owner's text, or null for the default (app/content/leads.ts). */
  text: string | null;
}

/** Per recipient mailbox (mailboxOf in app/lib/email.ts): this many acknowledgements per hour. */
const ACKNOWLEDGEMENT_THROTTLE = { points: 1, durationSeconds: 60 * 60 };
/** The whole site: at most this many acknowledgements an hour, whatever addresses are given. */
const SITE_ACKNOWLEDGEMENTS = { points: 100, durationSeconds: 60 * 60 };
/** Characters of the sender's name an acknowledgement repeats. */
const NAME_IN_ACKNOWLEDGEMENT = 60;

let throttles: { mailbox: Throttle; site: Throttle } | undefined;
/** Built once at start (the inbox's init). */
export function initAcknowledgementThrottle(connection: Connection): void {
  throttles = {
    mailbox: createThrottle(connection, {
      name: "acknowledgement",
      ...ACKNOWLEDGEMENT_THROTTLE,
      keyMaterial: throttleKeyMaterial,
    }),
    site: createThrottle(connection, {
      name: "acknowledgement-site",
      ...SITE_ACKNOWLEDGEMENTS,
      keyMaterial: throttleKeyMaterial,
    }),
  };
}

export async function readAcknowledgement(db: Db): Promise<AcknowledgementSetting> {
  const row = await db
    .selectFrom("site_settings")
    .select(["acknowledge_messages", "acknowledgement_text"])
    .where("id", "=", 1)
    .executeTakeFirst();
  return { enabled: Number(row?.acknowledge_messages ?? 0) === 1, text: row?.acknowledgement_text ?? null };
}

export type AcknowledgementParse =
  { ok: true; value: { enabled: boolean; text?: string | null } } | { ok: false; message: string };

/** `{enabled, text?}` as the API and the Saved replies screen send it; an empty text is the default, an omitted one is kept. */
export function parseAcknowledgement(body: unknown): AcknowledgementParse {
  if (typeof body !== "object" || body === null) return { ok: false, message: "Send a JSON object: {enabled, text}" };
  const { enabled, text } = body as Record<string, unknown>;
  if (typeof enabled !== "boolean") return { ok: false, message: "enabled must be true or false" };
  if (text !== undefined && text !== null && typeof text !== "string")
    return { ok: false, message: "text must be text or null" };
  if (typeof text === "string" && text.length > LEAD_LIMITS.acknowledgement)
    return { ok: false, message: `text is too long (${LEAD_LIMITS.acknowledgement} characters at most)` };
  if (typeof text === "string" && text.includes("\0")) return { ok: false, message: "text contains a NUL character" };
  if (text === undefined) return { ok: true, value: { enabled } };
  const trimmed = typeof text === "string" ? text.trim() : "";
  return { ok: true, value: { enabled, text: trimmed === "" ? null : trimmed } };
}

export async function saveAcknowledgement(
  db: Db,
  setting: { enabled: boolean; text?: string | null },
): Promise<AcknowledgementSetting> {
  await db
    .updateTable("site_settings")
    .set({
      acknowledge_messages: setting.enabled ? 1 : 0,
      ...(setting.text !== undefined && { acknowledgement_text: setting.text }),
    })
    .where("id", "=", 1)
    .execute();
  return readAcknowledgement(db);
}

/**
 * Whether this message's sender is sent an acknowledgement: the setting is
 * on, there is a mail server and a contact e-mail to send from, the mailbox
 * has not had one this hour and the site not 100 (which this call counts).
 */
export async function reserveAcknowledgement(db: Db, email: string): Promise<boolean> {
  if (!throttles) throw new Error("the inbox's init() was not called at start (server/startup.ts)");
  if (getMailer() === null || !(await readAcknowledgement(db)).enabled) return false;
  if (!(await readSiteSettings(db)).contactEmail) return false;
  const reserved = await reserveAll([
    [throttles.mailbox, mailboxOf(email)],
    [throttles.site, "all"],
  ]);
  return reserved.ok;
}

/** The acknowledgement's text for one sender. */
export function acknowledgementText(template: string | null, name: string, company: string): string {
  return (template ?? DEFAULT_ACKNOWLEDGEMENT)
    .replaceAll("{name}", name.slice(0, NAME_IN_ACKNOWLEDGEMENT))
    .replaceAll("{company}", company);
}

export const acknowledgement = defineJob<{ messageId: string }>(
  "contact.acknowledgement",
  async ({ messageId }, { db }) => {
    const row = await db
      .selectFrom("contact_messages")
      .select(["id", "name", "email", "mail_id", "status"])
      .where("id", "=", messageId)
      .executeTakeFirst();
    if (!row || row.status === "spam") return;
    const mailer = getMailer();
    if (!mailer) throw new Error("SMTP_URL is not set");
    const { enabled, text } = await readAcknowledgement(db);
    // Turned off since this one was queued: not sent.
    if (!enabled) return;
    const settings = await readSiteSettings(db);
    const from = settings.contactEmail;
    if (!from) throw new Error("No contact e-mail to send from: set one in Admin > Settings");
    await mailer.send({
      from: { name: settings.companyName, address: from },
      to: row.email,
      subject: leadMail.subject(settings.companyName),
      text: acknowledgementText(text, row.name, settings.companyName),
      messageId: mailId(`acknowledgement.${row.id}`),
      inReplyTo: row.mail_id ?? undefined,
      autoReply: true,
    });
    getLogger().info({ messageId: row.id }, "acknowledgement sent");
  },
  { maxAttempts: 5, retryDelaysMs: [5_000, 30_000, 2 * 60_000, 10 * 60_000], timeoutMs: 60_000 },
);
