import { Form, useNavigation } from "react-router";
import { AdminShell } from "~/components/admin/admin-shell";
import { preferredContactOptions, serviceOptions } from "~/content/contact";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/seo";
import { requireAdminPage } from "~/server/auth.server";
import { deleteMessage, listContactMessages, setMessageRead } from "~/server/contact.server";
import { getDb } from "~/server/db/index.server";
import { readFormBody } from "~/server/http.server";
import type { Route } from "./+types/admin.messages";

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdminPage(request);
  return { admin: { email: admin.email }, messages: await listContactMessages(getDb()) };
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
  const { admin, messages } = loaderData;
  const navigation = useNavigation();
  const busyId = navigation.formData?.get("id");
  const unread = messages.filter((m) => !m.read).length;
  return (
    <AdminShell email={admin.email}>
      <div className="mx-auto max-w-4xl">
        <h1 className="text-3xl font-bold">Messages</h1>
        <p className="mt-1 text-neutral-700">
          {messages.length === 0 ? "No messages yet." : `${messages.length} in all, ${unread} unread.`}
        </p>
        <ul className="mt-6 flex flex-col gap-4">
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
      </div>
    </AdminShell>
  );
}
