/**
 * One message of the inbox (ADRs 035, 070): who sent it, how to reach them,
 * its lead status, follow-up and origin, the message and its e-mail notice,
 * with opening its lead, marking it read or unread, deleting it and deleting
 * everything from its sender.
 */
import { Form, Link } from "react-router";
import { leadsText } from "~/content/leads";
import { countOf } from "~/lib/admin-lists";
import { formatDate } from "~/lib/dates";
import type { Route } from "./+types/route";
import { ContactFacts } from "./contact-facts";
import { LeadFacts } from "./lead-facts";

type Message = Route.ComponentProps["loaderData"]["messages"][number];

const noticeLabel = {
  off: "E-mail notice: not configured",
  pending: "E-mail notice: waiting to be sent",
  sent: "E-mail notice: sent",
  failed: "E-mail notice: failed",
} as const;

function forgetQuestion(email: string, count: number) {
  return count === 1
    ? `Delete the only message from ${email}? This cannot be undone.`
    : `Delete all ${count.toLocaleString("en-US")} messages from ${email}? This cannot be undone.`;
}

export function MessageCard({
  message,
  today,
  busyId,
  busySender,
}: {
  message: Message;
  /** The server's UTC day, YYYY-MM-DD: whether a follow-up is due. */
  today: string;
  /** The message a submitted form is changing, if any. */
  busyId: FormDataEntryValue | null | undefined;
  /** The sender whose messages are being deleted, if any. */
  busySender: FormDataEntryValue | null | undefined;
}) {
  return (
    <article
      aria-labelledby={`message-${message.id}`}
      data-read={message.read ? "true" : "false"}
      className={`rounded-lg border p-5 ${message.read ? "border-neutral-200 bg-white" : "border-brand-600 bg-brand-50"}`}
    >
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`message-${message.id}`} className="text-lg font-semibold break-words">
          {!message.read && (
            <span className="mr-2 rounded bg-brand-700 px-2 py-0.5 text-xs font-bold uppercase text-white">Unread</span>
          )}
          <Link
            to={`/admin/messages/${message.id}`}
            className="text-neutral-900 underline decoration-neutral-400 underline-offset-4 hover:decoration-brand-700"
          >
            {message.name}
          </Link>
        </h2>
        <time dateTime={message.createdAt} className="text-sm text-neutral-700">
          {formatDate(message.createdAt)} {new Date(message.createdAt).toISOString().slice(11, 16)} UTC
        </time>
      </header>
      <LeadFacts message={message} today={today} className="mt-2" />
      {/* A phone stacks each label over its value: beside "Preferred Contact Method" an address broke every few letters. */}
      <dl className="mt-3 grid grid-cols-1 gap-x-4 text-sm sm:grid-cols-[auto_1fr] sm:gap-y-1">
        <ContactFacts message={message} />
      </dl>
      <p className="mt-3 whitespace-pre-wrap break-words">{message.message}</p>
      <p className="mt-3 text-xs text-neutral-700">
        {noticeLabel[message.notice.status]}
        {message.notice.status === "pending" &&
          message.notice.attempts > 0 &&
          ` (tried ${message.notice.attempts} times)`}
        {message.notice.error && message.notice.status !== "sent" && `: ${message.notice.error}`}
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        <Link
          to={`/admin/messages/${message.id}`}
          aria-label={leadsText.openLabel(message.name)}
          className="rounded-md bg-brand-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-800"
        >
          {leadsText.open}
        </Link>
        <Form method="post">
          <input type="hidden" name="id" value={message.id} />
          <button
            type="submit"
            name="intent"
            value={message.read ? "unread" : "read"}
            disabled={busyId === message.id}
            className="rounded-md border border-neutral-400 px-3 py-1.5 text-sm font-medium hover:bg-neutral-100"
          >
            {message.read ? "Mark as unread" : "Mark as read"}
          </button>
        </Form>
        <Form
          method="post"
          onSubmit={(event) => {
            if (!window.confirm("Are you sure you want to delete this message?")) event.preventDefault();
          }}
        >
          <input type="hidden" name="id" value={message.id} />
          <button
            type="submit"
            name="intent"
            value="delete"
            aria-label={`Delete message from ${message.name}`}
            disabled={busyId === message.id}
            className="rounded-md border border-red-300 px-3 py-1.5 text-sm font-medium text-red-800 hover:bg-red-50"
          >
            Delete
          </button>
        </Form>
        <Form
          method="post"
          onSubmit={(event) => {
            if (!window.confirm(forgetQuestion(message.email, message.fromSender))) event.preventDefault();
          }}
        >
          <input type="hidden" name="email" value={message.email} />
          <button
            type="submit"
            name="intent"
            value="forget"
            disabled={typeof busySender === "string" && busySender.toLowerCase() === message.email.toLowerCase()}
            className="rounded-md border border-red-300 px-3 py-1.5 text-sm font-medium text-red-800 hover:bg-red-50"
          >
            {`Delete all from this sender (${countOf(message.fromSender, "message")})`}
          </button>
        </Form>
      </div>
    </article>
  );
}
