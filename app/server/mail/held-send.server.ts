import { Readable } from "node:stream";
import type SMTPConnection from "nodemailer/lib/smtp-connection";
import { loadOnce } from "~/lib/load-once";

/**
 * Bulk mail (the newsletter, ADR 072) that is recorded as sent exactly once,
 * though the record is in our database and the sending in someone else's
 * mail server. After the server's "go ahead" (354) the message goes whole
 * but for the line that ends it; then `commit` records the send; only then
 * does that line go. A server discards a message whose connection drops
 * before it (RFC 5321, 4.1.1.4), so a process killed before the commit has
 * sent nothing and the send is tried again, and one killed after it had
 * written everything but a few bytes. A refusal that comes after the end is
 * reported, so the caller can record the failure over the commit.
 *
 * nodemailer's SMTPConnection, not its transport: only the connection pipes
 * the message after 354, which is what makes "before the end" mean "after
 * the server has started to take it".
 */

export interface BulkMail {
  from: { name: string; address: string };
  to: string;
  subject: string;
  html: string;
  text: string;
  messageId: string;
  headers: Record<string, string>;
}

/**
 * What a failed send means for its recipient:
 * - `recipient`: the server refused this address (at RCPT, or the address
 *   is not one): that recipient failed, the others go on;
 * - `refused`: the server refused the whole message after its end (5xx):
 *   it failed, though the commit had recorded it;
 * - `retry`: nothing was delivered for now (the connection, the sign-in, a
 *   4xx anywhere): try again later, the commit undone if it had run;
 * - `unconfirmed`: the end went but its answer never came (the connection
 *   dropped): most likely delivered, so the record stands.
 */
export class BulkSendError extends Error {
  constructor(
    readonly outcome: "recipient" | "refused" | "retry" | "unconfirmed",
    /** The server's reply code or nodemailer's error code: no text, which may quote the address. */
    readonly code: string,
    /** The commit had run: the send was recorded. */
    readonly committed: boolean,
  ) {
    super(`${outcome}: ${code}`);
  }
}

function classify(error: unknown, committed: boolean, ended: boolean): BulkSendError {
  const { code, command, responseCode } = error as { code?: string; command?: string; responseCode?: number };
  const named = responseCode ? String(responseCode) : (code ?? "error");
  if (committed) {
    // Lost before the end went: the server discarded the message.
    if (!ended) return new BulkSendError("retry", named, true);
    if (responseCode === undefined) return new BulkSendError("unconfirmed", named, true);
    return new BulkSendError(responseCode >= 500 ? "refused" : "retry", named, true);
  }
  const atRecipient = command === "RCPT TO" || (code === "EENVELOPE" && command === "API");
  if (atRecipient && (responseCode === undefined || responseCode >= 500))
    return new BulkSendError("recipient", named, false);
  return new BulkSendError("retry", named, false);
}

/**
 * The whole message but its end: the first read (the connection is piping,
 * so the server said 354) gets every byte; the next one (they have all been
 * handed on) runs `commit` and then ends the stream, or fails it.
 */
function heldMessage(
  raw: Buffer,
  commit: () => Promise<void>,
  progress: { committing?: Promise<void>; ended: boolean },
): Readable {
  let stage: "body" | "committing" | "done" = "body";
  return new Readable({
    read() {
      if (stage === "body") {
        stage = "committing";
        this.push(raw);
        return;
      }
      if (stage !== "committing") return;
      stage = "done";
      const done = commit();
      progress.committing = done;
      done.then(
        () => {
          progress.ended = true;
          this.push(null);
        },
        (error: unknown) => this.destroy(error instanceof Error ? error : new Error(String(error))),
      );
    },
  });
}

/**
 * nodemailer's composer and connection, loaded with a mailing's first send
 * rather than compiled at every start: most starts never mail a post.
 */
const nodemailer = loadOnce(async () => {
  const [composer, shared, connection] = await Promise.all([
    import("nodemailer/lib/mail-composer"),
    import("nodemailer/lib/shared"),
    import("nodemailer/lib/smtp-connection"),
  ]);
  return {
    MailComposer: composer.default,
    parseConnectionUrl: shared.parseConnectionUrl,
    SMTPConnection: connection.default,
  };
});

const compose = async (mail: BulkMail): Promise<Buffer> =>
  new (await nodemailer()).MailComposer({
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    messageId: mail.messageId,
    headers: mail.headers,
  })
    .compile()
    .build();

export interface BulkSender {
  /** Sends `mail`, running `commit` just before its end; rejects with a BulkSendError. */
  send(mail: BulkMail, commit: () => Promise<void>): Promise<void>;
  close(): void;
}

/** Short: a batch's time-out must cover its last send (batch.server.ts). */
const TIMEOUTS = { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 5_000 };

async function open(url: string, closed: () => void): Promise<SMTPConnection> {
  const { parseConnectionUrl, SMTPConnection } = await nodemailer();
  const options = parseConnectionUrl(url);
  const connection = new SMTPConnection({ ...options, ...TIMEOUTS });
  connection.on("error", () => {}); // reported through the callbacks below
  connection.once("end", closed);
  try {
    await new Promise<void>((resolve, reject) => connection.connect((error) => (error ? reject(error) : resolve())));
    if (options.auth) {
      const auth = options.auth as SMTPConnection.Credentials;
      await new Promise<void>((resolve, reject) =>
        connection.login(auth, (error) => (error ? reject(error) : resolve())),
      );
    }
  } catch (error) {
    connection.close();
    throw error;
  }
  return connection;
}

/** One connection for a batch, opened on the first send and again after any failure. */
export function createBulkSender(url: string): BulkSender {
  let connection: SMTPConnection | undefined;
  const drop = () => {
    connection?.close();
    connection = undefined;
  };
  return {
    async send(mail, commit) {
      const raw = await compose(mail);
      const progress: { committing?: Promise<void>; ended: boolean } = { ended: false };
      let endedBeforeError = false;
      try {
        if (!connection) {
          const opened: SMTPConnection = await open(url, () => {
            if (connection === opened) connection = undefined;
          });
          connection = opened;
        }
        const current = connection;
        await new Promise<void>((resolve, reject) =>
          current.send({ from: mail.from.address, to: [mail.to] }, heldMessage(raw, commit, progress), (error) => {
            endedBeforeError = progress.ended;
            if (error) reject(error);
            else resolve();
          }),
        );
      } catch (error) {
        // A connection that failed mid-message is in no state for the next one.
        drop();
        // The connection may fail while the commit runs: what it did decides.
        const committed = progress.committing
          ? await progress.committing.then(
              () => true,
              () => false,
            )
          : false;
        throw classify(error, committed, endedBeforeError);
      }
    },
    close() {
      connection?.quit();
      connection = undefined;
    },
  };
}
