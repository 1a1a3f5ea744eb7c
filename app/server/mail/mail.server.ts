import type { Transporter } from "nodemailer";
import type { SiteSettings } from "~/lib/site-settings";
import { getConfig } from "../platform/config.server";

/**
 * Outgoing e-mail through SMTP_URL (docs/product/contract.md#contact-messages). Nothing else in the app
 * talks SMTP; callers decide what to do when sending fails.
 */
interface OutgoingMail {
  from: { name: string; address: string };
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
  /** Threading (ADR 070): this mail's Message-ID, and the one it answers (In-Reply-To and References). */
  messageId?: string;
  inReplyTo?: string;
  /** An automatic answer (RFC 3834's Auto-Submitted: auto-replied): mail systems send no auto-reply back. */
  autoReply?: boolean;
  /** A calendar invitation (ADR 071): a text/calendar part with this METHOD, which mail clients offer to add. */
  calendar?: { method: "REQUEST" | "CANCEL"; content: string };
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

let mailer: Mailer | null | undefined;

/**
 * Builds the transport once, at start (server/startup.ts), from SMTP_URL:
 * nodemailer opens no connection until the first message, so building it is
 * cheap, and a request never pays for it. nodemailer itself (a third of a
 * megabyte) is loaded then only when SMTP_URL is set: a site without mail
 * never compiles it.
 */
export function init(smtp: { url: string } | undefined): void {
  if (!smtp) {
    mailer = null;
    return;
  }
  const transport: Promise<Transporter> = import("nodemailer").then(({ default: nodemailer }) =>
    nodemailer.createTransport({
      url: smtp.url,
      // A dead or slow mail server must not hold a delivery attempt for long.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    }),
  );
  // A failure to load or build it is the first send's error, never an unhandled rejection meanwhile.
  transport.catch(() => {});
  mailer = {
    async send(mail) {
      await (
        await transport
      ).sendMail({
        from: mail.from,
        to: mail.to,
        replyTo: mail.replyTo,
        subject: mail.subject,
        text: mail.text,
        messageId: mail.messageId,
        inReplyTo: mail.inReplyTo,
        references: mail.inReplyTo,
        headers: mail.autoReply ? { "Auto-Submitted": "auto-replied" } : undefined,
        icalEvent: mail.calendar
          ? { method: mail.calendar.method, content: mail.calendar.content, filename: "invite.ics" }
          : undefined,
      });
    },
  };
}

/** The mailer `init` built, or null when SMTP_URL is not set. */
export function getMailer(): Mailer | null {
  if (mailer === undefined) throw new Error("mail: init() was not called at start (server/startup.ts)");
  return mailer;
}

/**
 * Where contact notices go and whom they come from (ADR 034): the
 * settings' notice address, else the contact e-mail; sent from the contact
 * e-mail, else from the notice address itself. Undefined when neither is set.
 */
export function noticeAddresses(
  settings: Pick<SiteSettings, "companyName" | "contactEmail" | "notifyEmail">,
): { to: string; from: OutgoingMail["from"] } | undefined {
  const to = settings.notifyEmail ?? settings.contactEmail;
  if (!to) return undefined;
  return { to, from: { name: settings.companyName, address: settings.contactEmail ?? to } };
}

/**
 * A Message-ID for one of the site's mails, `<{local}@{the site's host}>`:
 * stable for a given `local`, so a retried mail keeps its id and a mail
 * client that got it twice shows it once (ADR 070).
 */
export function mailId(local: string): string {
  return `<${local}@${new URL(getConfig().siteUrl).hostname || "localhost"}>`;
}
