import nodemailer, { type Transporter } from "nodemailer";
import { getConfig } from "./config.server";

/**
 * Outgoing e-mail through SMTP_URL (PRODUCT §5, §7). Nothing else in the app
 * talks SMTP; callers decide what to do when sending fails.
 */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

let mailer: Mailer | null | undefined;

/** The configured mailer, or null when SMTP_URL is not set. */
export function getMailer(): Mailer | null {
  if (mailer !== undefined) return mailer;
  const { smtp, company } = getConfig();
  if (!smtp) return (mailer = null);
  const transport: Transporter = nodemailer.createTransport({
    url: smtp.url,
    // A dead or slow mail server must not hold a delivery attempt for long.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  mailer = {
    async send(mail) {
      await transport.sendMail({
        from: { name: company.name, address: company.email },
        to: mail.to,
        replyTo: mail.replyTo,
        subject: mail.subject,
        text: mail.text,
      });
    },
  };
  return mailer;
}

/** Where contact notices go: CONTACT_NOTIFY_TO, else the company's CONTACT_EMAIL. */
export function noticeRecipient(): string {
  const { smtp, company } = getConfig();
  return smtp?.notifyTo ?? company.email;
}
