import { useEffect, useRef } from "react";
import { data, Link, useNavigation } from "react-router";
import { leadsText as text } from "~/content/leads";
import { pageMeta } from "~/lib/seo";
import { readAvailability } from "~/server/booking/index.server";
import { findMessage, listSavedReplies, replyBlocker } from "~/server/messages/index.server";
import { dbContext } from "~/server/platform/context.server";
import { withCallTime } from "../call-time";
import type { Route } from "./+types/route";
import { leadAction } from "./actions.server";
import { LeadForm } from "./lead-form";
import { MessageDetails } from "./message-details";
import { ReplySection } from "./reply-section";

/**
 * /admin/messages/{id}(?savedReply=): one lead (ADR 070): the whole message,
 * its status, follow-up and note, "Not spam", its replies and the reply form,
 * started from a saved reply when the address names one (so it works
 * without the page's script).
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const message = await findMessage(db, params.id);
  if (!message) throw new Response("Message not found", { status: 404 });
  const [savedReplies, blocker, availability] = await Promise.all([
    listSavedReplies(db),
    replyBlocker(db),
    readAvailability(db),
  ]);
  const chosen = new URL(request.url).searchParams.get("savedReply");
  const start = savedReplies.find((saved) => saved.id === chosen);
  return {
    message: withCallTime(message, availability.timeZone),
    savedReplies: savedReplies.map(({ id, name, body }) => ({ id, name, body })),
    blocker,
    startFrom: start ? { id: start.id, body: start.body } : null,
    // One key per reply form shown: a second press of Send (or a resent form) sends nothing more.
    replyKey: crypto.randomUUID(),
    today: new Date().toISOString().slice(0, 10),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { answer, status } = await leadAction(request, context, params.id);
  return data(answer, { status });
}

export const meta = ({ data: loaded }: Route.MetaArgs) =>
  pageMeta({ title: `${loaded ? loaded.message.name : "Message"} | Blog Admin`, noindex: true });

export default function AdminLead({ loaderData, actionData }: Route.ComponentProps) {
  const { message, savedReplies, blocker, startFrom, replyKey, today } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" ? navigation.formData?.get("intent") : undefined;
  const notice = useRef<HTMLDivElement>(null);
  const pageAnswer = actionData && actionData.intent !== "reply" ? actionData : undefined;
  // The outcome of Save or Not spam takes focus, so it is read.
  useEffect(() => {
    if (pageAnswer) notice.current?.focus();
  }, [pageAnswer]);
  return (
    <div className="mx-auto max-w-3xl">
      <p>
        <Link to="/admin/messages" className="font-medium text-brand-800 underline underline-offset-2">
          {text.back}
        </Link>
      </p>
      <h1 className="mt-3 text-3xl font-bold break-words">{message.name}</h1>
      <div ref={notice} tabIndex={-1} className="mt-4 outline-none">
        <div role="status">
          {pageAnswer?.ok && (
            <p className="rounded-md border border-green-300 bg-green-50 px-3 py-2 text-green-900">{pageAnswer.done}</p>
          )}
        </div>
        <div role="alert">
          {pageAnswer && !pageAnswer.ok && (
            <p className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-red-900">{pageAnswer.error}</p>
          )}
        </div>
      </div>
      <MessageDetails message={message} today={today} busy={busy === "not-spam"} />
      {/* A new key when what is stored changes: the fields show it. The status is not in the key: a reply that
          moves it (new to contacted) keeps what the owner typed in the other fields, and the select follows it. */}
      <LeadForm key={`${message.id}-${message.followUpAt}-${message.note}`} message={message} busy={busy === "save"} />
      <ReplySection
        replies={message.replies}
        savedReplies={savedReplies}
        blocker={blocker}
        startFrom={startFrom}
        replyKey={replyKey}
        answer={actionData?.intent === "reply" ? actionData : undefined}
        busy={busy === "reply"}
      />
    </div>
  );
}
