/**
 * The lead screen's message (ADRs 035, 070): who sent it, when, how to reach
 * them, what they asked, its status, follow-up and origin, and for a message
 * the site kept as spam, why, with "Not spam" to move it back to New.
 */
import { Form } from "react-router";
import { leadsText as text } from "~/content/leads";
import { formatDate } from "~/lib/dates";
import type { ContactMessage } from "~/server/messages/index.server";
import { ContactFacts } from "../contact-facts";
import { LeadFacts } from "../lead-facts";

export function MessageDetails({
  message,
  today,
  busy,
}: {
  message: ContactMessage & { callTime: string | null };
  today: string;
  busy: boolean;
}) {
  return (
    <article aria-labelledby="message-heading" className="mt-4 rounded-lg border border-neutral-200 bg-white p-5">
      <h2 id="message-heading" className="sr-only">
        {`Message from ${message.name}`}
      </h2>
      <LeadFacts message={message} today={today} />
      <dl className="mt-3 grid grid-cols-1 gap-x-4 text-sm sm:grid-cols-[auto_1fr] sm:gap-y-1">
        <dt className="font-medium">{text.received}</dt>
        <dd className="mb-2 sm:mb-0">
          <time dateTime={message.createdAt}>
            {formatDate(message.createdAt)} {new Date(message.createdAt).toISOString().slice(11, 16)} UTC
          </time>
        </dd>
        <ContactFacts message={message} />
      </dl>
      <p className="mt-4 whitespace-pre-wrap break-words">{message.message}</p>
      {message.status === "spam" && (
        <Form method="post" className="mt-4">
          <button
            type="submit"
            name="intent"
            value="not-spam"
            disabled={busy}
            className="min-h-10 rounded-md border border-neutral-400 bg-white px-4 text-sm font-medium hover:bg-neutral-100 disabled:opacity-60"
          >
            {text.notSpam}
          </button>
        </Form>
      )}
    </article>
  );
}
