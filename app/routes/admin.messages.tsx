import { Form, redirect, useNavigation } from "react-router";
import { AdminShell } from "~/components/admin/admin-shell";
import { Pager } from "~/components/admin/pager";
import { preferredContactOptions, serviceOptions } from "~/content/contact";
import { adminListHref, countOf, pageCount } from "~/lib/admin-lists";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/seo";
import { requireAdminPage } from "~/server/auth.server";
import { countUnreadMessages, deleteMessage, listContactMessages, setMessageRead } from "~/server/contact.server";
import { getDb } from "~/server/db/index.server";
import { jsonError, readFormBody } from "~/server/http.server";
import { parseMessageScreenQuery } from "~/server/list-query.server";
import type { Route } from "./+types/admin.messages";

/** /admin/messages?page=: one page of the inbox, newest first (ADR 026). */
export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdminPage(request);
  const query = parseMessageScreenQuery(new URL(request.url));
  if (!query.ok) throw jsonError(400, query.message);
  const db = getDb();
  const [{ messages, total }, unread] = await Promise.all([
    listContactMessages(db, query.value),
    countUnreadMessages(db),
  ]);
  const { page } = query.value;
  // Past the end (the last messages were deleted, an old link): the last page.
  const pages = pageCount(total);
  if (page > pages) throw redirect(adminListHref("/admin/messages", { page: pages }));
  return { admin: { email: admin.email }, messages, total, unread, page, pages };
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdminPage(request);
  const form = await readFormBody(request);
  const id = String(form.get("id") ?? "");
  const intent = form.get("intent");
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

export default function AdminMessages({ loaderData }: Route.ComponentProps) {
  const { admin, messages, total, unread, page, pages } = loaderData;
  const navigation = useNavigation();
  const busyId = navigation.formData?.get("id");
  // Another page on its way (not the refresh after marking or deleting a message).
  const loading =
    navigation.state === "loading" && !navigation.formData && navigation.location.pathname === "/admin/messages";
  return (
    <AdminShell email={admin.email}>
      <div className="mx-auto max-w-4xl">
        <h1 className="text-3xl font-bold">Messages</h1>
        <p aria-live="polite" aria-atomic="true" className="mt-1 text-neutral-700">
          {loading
            ? "Loading messages..."
            : total === 0
              ? "No messages yet."
              : `${countOf(total, "message")} in all, ${unread.toLocaleString("en-US")} unread${
                  pages > 1 ? `; page ${page.toLocaleString("en-US")} of ${pages.toLocaleString("en-US")}` : ""
                }.`}
        </p>
        <ul aria-busy={loading} className={`mt-6 flex flex-col gap-4 ${loading ? "opacity-60" : ""}`}>
          {messages.map((message) => (
            <li key={message.id}>
              <article
                aria-labelledby={`message-${message.id}`}
                data-read={message.read ? "true" : "false"}
                className={`rounded-lg border p-5 ${message.read ? "border-neutral-200 bg-white" : "border-brand-600 bg-brand-50"}`}
              >
                <header className="flex flex-wrap items-baseline justify-between gap-2">
                  <h2 id={`message-${message.id}`} className="text-lg font-semibold">
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
                <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                  <dt className="font-medium">Email</dt>
                  <dd>
                    <a className="text-brand-700 underline" href={`mailto:${message.email}`}>
                      {message.email}
                    </a>
                  </dd>
                  <dt className="font-medium">Phone</dt>
                  <dd>{message.phone ?? "-"}</dd>
                  <dt className="font-medium">Preferred Contact Method</dt>
                  <dd>{label(preferredContactOptions, message.preferredContact)}</dd>
                  <dt className="font-medium">Service Interest</dt>
                  <dd>{label(serviceOptions, message.service)}</dd>
                </dl>
                <p className="mt-3 whitespace-pre-wrap break-words">{message.message}</p>
                <p className="mt-3 text-xs text-neutral-700">
                  {noticeLabel[message.notice.status]}
                  {message.notice.status === "pending" &&
                    message.notice.attempts > 0 &&
                    ` (tried ${message.notice.attempts} times)`}
                  {message.notice.error && message.notice.status !== "sent" && `: ${message.notice.error}`}
                </p>
                <div className="mt-4 flex gap-3">
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
                </div>
              </article>
            </li>
          ))}
        </ul>
        <Pager
          page={page}
          pages={pages}
          hrefFor={(n) => adminListHref("/admin/messages", { page: n })}
          label="Pages of messages"
        />
      </div>
    </AdminShell>
  );
}
