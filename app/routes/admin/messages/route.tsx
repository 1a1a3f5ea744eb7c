import { useEffect, useRef } from "react";
import { Link, redirect, useNavigation } from "react-router";
import { listLoading } from "~/components/admin/admin-screen";
import { ListFilterForm, useListFilter } from "~/components/admin/list-filter";
import { Pager } from "~/components/admin/pager";
import {
  countOf,
  messagesHref,
  MAX_MESSAGE_SEARCH,
  MESSAGES_CSV_PATH,
  type ReadFilter,
  pageCount,
} from "~/lib/admin-lists";
import { pageMeta } from "~/lib/seo";
import { leadsText } from "~/content/leads";
import type { LeadFilter, LeadSort } from "~/lib/leads";
import {
  countLeadsByStatus,
  countMessagesBySender,
  countUnreadMessages,
  deleteMessage,
  deleteMessagesFrom,
  listContactMessages,
  setMessageRead,
  parseMessageScreenQuery,
  parseSender,
} from "~/server/messages/index.server";
import { readAvailability } from "~/server/booking/index.server";
import { dbContext } from "~/server/platform/context.server";
import { jsonError, readFormBody } from "~/server/platform/http.server";
import type { Route } from "./+types/route";
import { withCallTime } from "./call-time";
import { MessageCard } from "./message-card";
import { StatusLinks } from "./status-links";

/**
 * /admin/messages?status=&read=&sort=&q=&page=: one page of the inbox,
 * filtered by lead status and read state, newest or follow-up first (ADRs 026, 035, 070).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = parseMessageScreenQuery(new URL(request.url));
  if (!query.ok) throw jsonError(400, query.message);
  const db = context.get(dbContext);
  const [{ messages, total }, unread, counts, availability] = await Promise.all([
    listContactMessages(db, query.value),
    countUnreadMessages(db),
    countLeadsByStatus(db),
    // A booked call's time is shown in the owner's zone.
    readAvailability(db),
  ]);
  const { page, q = "", read, status = "all", sort = "newest" } = query.value;
  const view = { q, read, status, sort };
  // Past the end (the last messages were deleted, an old link): the last page.
  const pages = pageCount(total);
  if (page > pages) throw redirect(messagesHref({ ...view, page: pages }));
  // "Delete all from this sender" says how many will go: one grouped count for the page's senders.
  const bySender = await countMessagesBySender(
    db,
    messages.map((message) => message.email),
  );
  return {
    messages: messages.map((message) => ({
      ...withCallTime(message, availability.timeZone),
      fromSender: bySender.get(message.email.toLowerCase()) ?? 1,
    })),
    total,
    unread,
    counts,
    page,
    pages,
    view,
    // The server's UTC day, so a follow-up reads the same before and after hydration.
    today: new Date().toISOString().slice(0, 10),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormBody(request);
  const id = String(form.get("id") ?? "");
  const intent = form.get("intent");
  if (intent === "forget") {
    const sender = parseSender(form.get("email"));
    if (!sender.ok) throw jsonError(400, sender.message);
    const deleted = await deleteMessagesFrom(context.get(dbContext), sender.value);
    return { forgotten: { email: sender.value, deleted } };
  }
  if (intent === "delete") await deleteMessage(context.get(dbContext), id);
  else if (intent === "read" || intent === "unread")
    await setMessageRead(context.get(dbContext), id, intent === "read");
  return null;
}

export const meta = () => pageMeta({ title: "Messages | Blog Admin", noindex: true });

const READ_LABELS: Record<ReadFilter, string> = { all: "All messages", unread: "Unread", read: "Read" };

interface View {
  q: string;
  read: ReadFilter;
  status: LeadFilter;
  sort: LeadSort;
}

/** "3 unread messages match “ann”", "62 messages in all, 61 unread", "2 won messages". */
function describeView(total: number, unread: number, { q, read, status }: View) {
  if (!q && read === "all" && status === "all")
    return `${countOf(total, "message")} in all, ${unread.toLocaleString("en-US")} unread`;
  const kind = [read === "all" ? "" : read, status === "all" ? "" : status, "message"].filter(Boolean).join(" ");
  if (!q) return `${countOf(total, kind)}`;
  return `${countOf(total, kind)} ${total === 1 ? "matches" : "match"} “${q}”`;
}

export default function AdminMessages({ loaderData, actionData }: Route.ComponentProps) {
  const { messages, total, unread, counts, page, pages, view, today } = loaderData;
  const { q, read } = view;
  const navigation = useNavigation();
  const busyId = navigation.formData?.get("id");
  const busySender = navigation.formData?.get("intent") === "forget" ? navigation.formData.get("email") : undefined;
  const loading = listLoading(navigation, "/admin/messages");
  const forgottenRef = useRef<HTMLParagraphElement>(null);
  const forgotten = actionData?.forgotten;

  // What the next view changes besides the search and the read filter (the order, Show all's reset).
  const also = useRef<Partial<View>>({});
  const filter = useListFilter(q, read, (next) => {
    const href = messagesHref({ ...view, ...also.current, q: next.q, read: next.choice });
    also.current = {};
    return href;
  });

  // The sender's messages are gone, and with them the button that had focus: the outcome takes it.
  useEffect(() => {
    if (forgotten) forgottenRef.current?.focus();
  }, [forgotten]);

  const filtered = Boolean(q) || read !== "all" || view.status !== "all";
  // The export carries the view's filters (its order is the export's own).
  const exportHref = messagesHref({ ...view, sort: "newest" }, MESSAGES_CSV_PATH);

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
        choiceName="read"
        choiceLabel="Show"
        choices={READ_LABELS}
      >
        {view.status !== "all" && <input type="hidden" name="status" value={view.status} />}
        <div className="flex flex-col gap-1">
          <label htmlFor="inbox-sort" className="text-sm font-semibold text-neutral-800">
            {leadsText.sortLabel}
          </label>
          <select
            id="inbox-sort"
            name="sort"
            value={view.sort}
            onChange={(event) => {
              also.current = { sort: event.target.value as LeadSort };
              filter.show({ q: filter.text.trim(), choice: read });
            }}
            className="h-11 rounded-md border border-neutral-400 bg-white px-3 text-base text-neutral-900 focus:border-brand-600"
          >
            {(Object.entries(leadsText.sorts) as [LeadSort, string][]).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
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
      <StatusLinks view={view} counts={counts} />
      {/* Not a status role: the sender-deletion outcome above is the page's one status. */}
      <p aria-live="polite" aria-atomic="true" className="mt-4 min-h-6 text-neutral-700">
        {loading
          ? "Loading messages..."
          : total === 0
            ? filtered
              ? "No messages match."
              : "No messages yet."
            : `${describeView(total, unread, view)}${
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
              also.current = { status: "all", sort: "newest" };
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
            <MessageCard message={message} today={today} busyId={busyId} busySender={busySender} />
          </li>
        ))}
      </ul>
      <Pager page={page} pages={pages} hrefFor={(n) => messagesHref({ ...view, page: n })} label="Pages of messages" />
    </div>
  );
}
