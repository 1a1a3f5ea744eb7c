/**
 * The lead's replies (ADR 070): each with whether it was sent, and the form
 * that sends another, started from a saved reply if the owner likes (the
 * select fills the text at once; without the page's script, "Use this
 * reply" reloads the page with it). When replies cannot be sent, the reason
 * stands in place of the form.
 */
import { useState } from "react";
import { Form, Link } from "react-router";
import { hintClass, inputClass, labelClass } from "~/components/admin/field-classes";
import { leadsText as text } from "~/content/leads";
import { formatDate } from "~/lib/dates";
import { LEAD_LIMITS } from "~/lib/leads";
import type { Reply } from "~/server/messages/index.server";
import type { LeadAnswer } from "./actions.server";

const when = (iso: string) => `${formatDate(iso)} ${new Date(iso).toISOString().slice(11, 16)} UTC`;

function replyState(reply: Reply) {
  if (reply.status === "failed") return text.replyFailed(reply.error);
  if (reply.status === "sent") return reply.sentAt ? text.replySentAt(when(reply.sentAt)) : text.replyStatus.sent;
  return `${text.replyStatus.pending}${reply.attempts > 0 ? text.replyAttempts(reply.attempts) : ""}`;
}

function ReplyList({ replies }: { replies: Reply[] }) {
  if (replies.length === 0) return <p className="mt-2 text-neutral-700">{text.noReplies}</p>;
  return (
    <ol className="mt-3 flex flex-col gap-3">
      {replies.map((reply) => (
        <li key={reply.id} className="rounded-md border border-neutral-200 bg-neutral-50 p-3 text-sm">
          <p className="font-medium">
            <time dateTime={reply.createdAt}>{when(reply.createdAt)}</time>
            {" · "}
            <span className={reply.status === "failed" ? "text-red-900" : "text-neutral-800"}>{replyState(reply)}</span>
          </p>
          <p className="mt-2 whitespace-pre-wrap break-words">{reply.body}</p>
        </li>
      ))}
    </ol>
  );
}

interface SavedChoice {
  id: string;
  name: string;
  body: string;
}

function ReplyForm({
  savedReplies,
  startFrom,
  replyKey,
  busy,
}: {
  savedReplies: SavedChoice[];
  startFrom: { id: string; body: string } | null;
  replyKey: string;
  busy: boolean;
}) {
  const [chosen, setChosen] = useState(startFrom?.id ?? "");
  const [body, setBody] = useState(startFrom?.body ?? "");
  // Choosing fills an empty reply (or one that is still another saved reply's text); over
  // what the owner typed, only "Use this reply" replaces it.
  const use = (id: string, replace: boolean) => {
    setChosen(id);
    const saved = savedReplies.find((candidate) => candidate.id === id);
    const untouched = body.trim() === "" || savedReplies.some((candidate) => candidate.body === body);
    if (saved && (replace || untouched)) setBody(saved.body);
  };
  return (
    <>
      {savedReplies.length > 0 && (
        <form
          method="get"
          className="mt-3 flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            use(chosen, true);
          }}
        >
          <div className="flex min-w-0 flex-col gap-1">
            <label htmlFor="reply-saved" className={labelClass}>
              {text.startFrom}
            </label>
            <select
              id="reply-saved"
              name="savedReply"
              value={chosen}
              onChange={(event) => use(event.target.value, false)}
              className={`h-11 ${inputClass}`}
            >
              <option value="">{text.noSavedReply}</option>
              {savedReplies.map((saved) => (
                <option key={saved.id} value={saved.id}>
                  {saved.name}
                </option>
              ))}
            </select>
          </div>
          <button
            type="submit"
            className="h-11 rounded-md border border-neutral-400 bg-white px-4 text-sm font-medium hover:bg-neutral-100"
          >
            {text.useSaved}
          </button>
        </form>
      )}
      <Form method="post" className="mt-3 flex flex-col gap-3">
        <input type="hidden" name="key" value={replyKey} />
        <div className="flex flex-col gap-1">
          <label htmlFor="reply-body" className={labelClass}>
            {text.replyLabel}
          </label>
          <textarea
            id="reply-body"
            name="body"
            rows={8}
            required
            maxLength={LEAD_LIMITS.reply}
            value={body}
            onChange={(event) => setBody(event.target.value)}
            aria-describedby="reply-body-hint"
            className={inputClass}
          />
          <p id="reply-body-hint" className={hintClass}>
            {text.replyHint}
          </p>
        </div>
        <div>
          <button
            type="submit"
            name="intent"
            value="reply"
            disabled={busy}
            className="h-11 rounded-md bg-brand-700 px-4 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
          >
            {busy ? text.sending : text.sendReply}
          </button>
        </div>
      </Form>
    </>
  );
}

export function ReplySection({
  replies,
  savedReplies,
  blocker,
  startFrom,
  replyKey,
  answer,
  busy,
}: {
  replies: Reply[];
  savedReplies: SavedChoice[];
  blocker: string | null;
  startFrom: { id: string; body: string } | null;
  replyKey: string;
  answer: LeadAnswer | undefined;
  busy: boolean;
}) {
  return (
    <section aria-labelledby="replies-heading" className="mt-6 rounded-lg border border-neutral-200 bg-white p-5">
      <h2 id="replies-heading" className="text-xl font-semibold">
        {text.repliesHeading}
      </h2>
      <ReplyList replies={replies} />
      <div role="status" className="mt-3">
        {answer?.ok && (
          <p className="rounded-md border border-green-300 bg-green-50 px-3 py-2 text-green-900">{answer.done}</p>
        )}
      </div>
      <div role="alert">
        {answer && !answer.ok && (
          <p className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-red-900">{answer.error}</p>
        )}
      </div>
      {blocker ? (
        <p className="mt-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900">{blocker}</p>
      ) : (
        // A new form (emptied) once a reply is added; a Save of the lead keeps what is typed.
        <ReplyForm
          key={replies.length}
          savedReplies={savedReplies}
          startFrom={startFrom}
          replyKey={replyKey}
          busy={busy}
        />
      )}
      <p className="mt-4 text-sm">
        <Link to="/admin/saved-replies" className="font-medium text-brand-800 underline underline-offset-2">
          {text.manageSaved}
        </Link>
      </p>
    </section>
  );
}
