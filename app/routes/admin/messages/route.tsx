import { useEffect, useRef } from "react";
import { Form, Link, redirect, useNavigation } from "react-router";
import { ListFilterForm, useListFilter } from "~/components/admin/list-filter";
import { Pager } from "~/components/admin/pager";
import { preferredContactOptions, serviceOptions } from "~/content/contact";
import {
  countOf,
  inboxHref,
  MAX_MESSAGE_SEARCH,
  MESSAGES_CSV_PATH,
  type MessageStatus,
  pageCount,
} from "~/lib/admin-lists";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/seo";
import { requireAdminPage } from "~/server/auth.server";
import {
  countMessagesBySender,
  countUnreadMessages,
  deleteMessage,
  deleteMessagesFrom,
  listContactMessages,
  setMessageRead,
} from "~/server/contact.server";
import { getDb } from "~/server/db/index.server";
import { jsonError, readFormBody } from "~/server/http.server";
import { parseMessageScreenQuery, parseSender } from "~/server/list-query.server";
import type { Route } from "./+types/route";

/** /admin/messages?status=&q=&page=: one page of the inbox, newest first, filtered (ADRs 026, 035). */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminPage(request);
  const query = parseMessageScreenQuery(new URL(request.url));
  if (!query.ok) throw jsonError(400, query.message);
  const db = getDb();
  const [{ messages, total }, unread] = await Promise.all([
    listContactMessages(db, query.value),
    countUnreadMessages(db),
  ]);
  const { page, q = "", status } = query.value;
  // Past the end (the last messages were deleted, an old link): the last page.
  const pages = pageCount(total);
  if (page > pages) throw redirect(inboxHref({ page: pages, q, status }));
  // "Delete all from this sender" says how many will go: one grouped count for the page's senders.
  const bySender = await countMessagesBySender(
    db,
    messages.map((message) => message.email),
  );
  return {
    messages: messages.map((message) => ({
      ...message,
      fromSender: bySender.get(message.email.toLowerCase()) ?? 1,
    })),
    total,
    unread,
    page,
    pages,
    q,
    status,
  };
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdminPage(request);
  const form = await readFormBody(request);
  const id = String(form.get("id") ?? "");
  const intent = form.get("intent");
  if (intent === "forget") {
    const sender = parseSender(form.get("email"));
    if (!sender.ok) throw jsonError(400, sender.message);
    const deleted = await deleteMessagesFrom(getDb(), sender.value);
    return { forgotten: { email: sender.value, deleted } };
  }
  if (intent === "delete") await deleteMessage(getDb(), id);
  else if (intent === "read" || intent === "unread") await setMessageRead(getDb(), id, intent === "read");
  return null;
}

export const meta = () => pageMeta({ title: "Messages | Blog Admin", noindex: true });

const label = (options: ReadonlyArray<{ value: string; label: string }>, value: string) =>
  options.find((o) => o.value === value)?.label ?? value;

const noticeLabel = {
  off: "E-mail notice: not configured",
  pending: "E-mail notice: waiting to be sent",
  sent: "E-mail notice: sent",
  failed: "E-mail notice: failed",
} as const;

const STATUS_LABELS: Record<MessageStatus, string> = { all: "All messages", unread: "Unread", read: "Read" };

function forgetQuestion(email: string, count: number) {
  return count === 1
    ? `Delete the only message from ${email}? This cannot be undone.`
    : `Delete all ${count.toLocaleString("en-US")} messages from ${email}? This cannot be undone.`;
}

/** "3 unread messages match “ann”", "62 messages in all, 61 unread". */
function describeView({
  total,
  unread,
  q,
  status,
}: {
  total: number;
  unread: number;
  q: string;
  status: MessageStatus;
}) {
  if (!q && status === "all") return `${countOf(total, "message")} in all, ${unread.toLocaleString("en-US")} unread`;
  const kind = status === "all" ? "message" : `${status} message`;
  if (!q) return `${countOf(total, kind)}`;
  return `${countOf(total, kind)} ${total === 1 ? "matches" : "match"} “${q}”`;
}

export default function AdminMessages({ loaderData, actionData }: Route.ComponentProps) {
  const { messages, total, unread, page, pages, q, status } = loaderData;
  const navigation = useNavigation();
  const busyId = navigation.formData?.get("id");
  const busySender = navigation.formData?.get("intent") === "forget" ? navigation.formData.get("email") : undefined;
  // Another page or filter on its way (not the refresh after marking or deleting a message).
  const loading =
    navigation.state === "loading" && !navigation.formData && navigation.location.pathname === "/admin/messages";
  const forgottenRef = useRef<HTMLParagraphElement>(null);
  const forgotten = actionData?.forgotten;

  const filter = useListFilter(q, status, (view) => inboxHref({ q: view.q, status: view.choice }));

  // The sender's messages are gone, and with them the button that had focus: the outcome takes it.
  useEffect(() => {
    if (forgotten) forgottenRef.current?.focus();
  }, [forgotten]);

  const filtered = Boolean(q) || status !== "all";
  const exportHref = inboxHref({ q, status }, MESSAGES_CSV_PATH);

  return (
    <div className="mx-auto max-w-4xl">
      <h1 className="text-3xl font-bold">Messages</h1>
      {forgotten && (
        <p
          ref={forgottenRef}
          tabIndex={-1}
          role="status"
          className="mt-4 rounded-md border border-green-300 bg-green-50 px-3 py-2 text-sm text-green-900"
        >
          {forgotten.deleted === 0
            ? `There were no messages from ${forgotten.email} left to delete.`
            : `Deleted ${countOf(forgotten.deleted, "message")} from ${forgotten.email}.`}
        </p>
      )}
      <ListFilterForm
        filter={filter}
        name="Messages"
        action="/admin/messages"
        searchLabel="Search by name or e-mail"
        maxLength={MAX_MESSAGE_SEARCH}
        choiceName="status"
        choiceLabel="Show"
        choices={STATUS_LABELS}
      >
        <button
          type="submit"
          className="h-11 rounded-md border border-neutral-400 bg-white px-4 text-sm font-medium hover:bg-neutral-100"
        >
          Search
        </button>
        {total > 0 && (
          <a
            href={exportHref}
            download
            className="inline-flex h-11 items-center rounded-md bg-brand-700 px-4 text-sm font-medium text-white hover:bg-brand-800"
          >
            Export CSV
          </a>
        )}
      </ListFilterForm>
      {/* Not a status role: the sender-deletion outcome above is the page's one status. */}
      <p aria-live="polite" aria-atomic="true" className="mt-4 min-h-6 text-neutral-700">
        {loading
          ? "Loading messages..."
          : total === 0
            ? filtered
              ? "No messages match."
              : "No messages yet."
            : `${describeView({ total, unread, q, status })}${
                pages > 1 ? `; page ${page.toLocaleString("en-US")} of ${pages.toLocaleString("en-US")}` : ""
              }.`}
      </p>
      {total === 0 && filtered && !loading && (
        <p className="mt-2">
          <Link
            to="/admin/messages"
            onClick={(event) => {
              // The box empties and the view changes in one step: left to the
              // search's pause, the emptied box would ask again with the old status.
              event.preventDefault();
              filter.setText("");
              filter.show({ q: "", choice: "all" });
            }}
            className="font-medium text-brand-800 underline underline-offset-2"
          >
            Show all messages
          </Link>
        </p>
      )}
      <ul aria-busy={loading} className={`mt-6 flex flex-col gap-4 ${loading ? "opacity-60" : ""}`}>
        {messages.map((message) => (
          <li key={message.id}>
            <article
              aria-labelledby={`message-${message.id}`}
              data-read={message.read ? "true" : "false"}
              className={`rounded-lg border p-5 ${message.read ? "border-neutral-200 bg-white" : "border-brand-600 bg-brand-50"}`}
            >
              <header className="flex flex-wrap items-baseline justify-between gap-2">
                <h2 id={`message-${message.id}`} className="text-lg font-semibold break-words">
                  {!message.read && (
                    <span className="mr-2 rounded bg-brand-700 px-2 py-0.5 text-xs font-bold uppercase text-white">
                      Unread
                    </span>
                  )}
                  {message.name}
                </h2>
                <time dateTime={message.createdAt} className="text-sm text-neutral-700">
                  {formatDate(message.createdAt)} {new Date(message.createdAt).toISOString().slice(11, 16)} UTC
                </time>
              </header>
              {/* A phone stacks each label over its value: beside "Preferred Contact Method" an address broke every few letters. */}
              <dl className="mt-3 grid grid-cols-1 gap-x-4 text-sm sm:grid-cols-[auto_1fr] sm:gap-y-1">
                <dt className="font-medium">Email</dt>
                <dd className="mb-2 min-w-0 break-words sm:mb-0">
                  <a className="text-brand-700 underline" href={`mailto:${message.email}`}>
                    {message.email}
                  </a>
                </dd>
                <dt className="font-medium">Phone</dt>
                <dd className="mb-2 sm:mb-0">{message.phone ?? "-"}</dd>
                <dt className="font-medium">Preferred Contact Method</dt>
                <dd className="mb-2 sm:mb-0">{label(preferredContactOptions, message.preferredContact)}</dd>
                <dt className="font-medium">Service Interest</dt>
                <dd className="mb-2 sm:mb-0">{label(serviceOptions, message.service)}</dd>
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
                    disabled={
                      typeof busySender === "string" && busySender.toLowerCase() === message.email.toLowerCase()
                    }
                    className="rounded-md border border-red-300 px-3 py-1.5 text-sm font-medium text-red-800 hover:bg-red-50"
                  >
                    {`Delete all from this sender (${countOf(message.fromSender, "message")})`}
                  </button>
                </Form>
              </div>
            </article>
          </li>
        ))}
      </ul>
      <Pager page={page} pages={pages} hrefFor={(n) => inboxHref({ page: n, q, status })} label="Pages of messages" />
    </div>
  );
}
