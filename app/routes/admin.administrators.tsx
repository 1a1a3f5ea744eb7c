import { useEffect, useRef, useState } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import { AdminShell } from "~/components/admin/admin-shell";
import { INVITE_HOURS, invitePath } from "~/lib/admins";
import { formatDate } from "~/lib/dates";
import { EMAIL_MAX_LENGTH } from "~/lib/email";
import { pageMeta } from "~/lib/seo";
import {
  AdminsError,
  createInvite,
  listAdministrators,
  listPendingInvites,
  removeAdministrator,
  revokeInvite,
} from "~/server/admins.server";
import { recordAudit } from "~/server/audit.server";
import { requireAdminPage, signOut } from "~/server/auth.server";
import { getConfig } from "~/server/config.server";
import { getDb } from "~/server/db/index.server";
import { readFormBody } from "~/server/http.server";
import type { Route } from "./+types/admin.administrators";
import { adminShellData } from "~/server/admin-shell.server";

/** /admin/administrators: who can sign in, invitations, removal (ADR 038). */
export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdminPage(request);
  const db = getDb();
  const [administrators, invites] = await Promise.all([listAdministrators(db), listPendingInvites(db)]);
  return { admin: { id: admin.id, ...(await adminShellData(admin)) }, administrators, invites };
}

interface ActionResult {
  intent: string;
  ok: boolean;
  /** ok: what was done; the invitation's details come apart. */
  message?: string;
  error?: string;
  email?: string;
  link?: string;
  expiresAt?: string;
}

const reply = (result: ActionResult, status = 200) => data(result, { status });

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdminPage(request);
  const form = await readFormBody(request);
  const intent = String(form.get("intent") ?? "");
  const audit = { admin, request, clientAddress: context.clientAddress };
  const db = getDb();
  // What was typed stays in the box when an invitation is refused.
  const typed = intent === "invite" ? String(form.get("email") ?? "").slice(0, EMAIL_MAX_LENGTH + 1) : undefined;
  try {
    if (intent === "invite") {
      const { token, ...invite } = await createInvite(db, typed ?? "", admin);
      await recordAudit({ action: "admin-invited", target: invite.email, ...audit });
      return reply({
        intent,
        ok: true,
        email: invite.email,
        link: `${getConfig().siteUrl}${invitePath(token)}`,
        expiresAt: invite.expiresAt,
      });
    }
    const id = String(form.get("id") ?? "");
    if (intent === "revoke") {
      const email = await revokeInvite(db, id);
      if (!email) throw new AdminsError(404, "That invitation was already used, withdrawn or expired.");
      await recordAudit({ action: "invite-revoked", target: email, ...audit });
      return reply({ intent, ok: true, message: `The invitation for ${email} was withdrawn.` });
    }
    if (intent === "remove") {
      const email = await removeAdministrator(db, id);
      await recordAudit({ action: "admin-removed", target: email, ...audit });
      if (id === admin.id) throw redirect("/admin/login", { headers: { "Set-Cookie": await signOut(request) } });
      return reply({ intent, ok: true, message: `${email} was removed and signed out.` });
    }
    return reply({ intent, ok: false, error: "Unknown action" }, 400);
  } catch (error) {
    if (error instanceof AdminsError)
      return reply({ intent, ok: false, error: error.message, email: typed }, error.status);
    throw error;
  }
}

export const meta = () => pageMeta({ title: "Administrators | Blog Admin", noindex: true });

const dateTime = (iso: string) => `${formatDate(iso)}, ${iso.slice(11, 16)} UTC`;

const buttonClass = "rounded-md border px-3 py-1.5 text-sm font-medium disabled:opacity-60";

export default function AdminAdministrators({ loaderData, actionData }: Route.ComponentProps) {
  const { admin, administrators, invites } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" ? navigation.formData?.get("intent") : undefined;
  const busyId = navigation.formData?.get("id");
  const created =
    actionData?.ok && actionData.link && actionData.email && actionData.expiresAt
      ? { link: actionData.link, email: actionData.email, expiresAt: actionData.expiresAt }
      : undefined;
  const linkRef = useRef<HTMLInputElement>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const inviteForm = useRef<HTMLFormElement>(null);
  const [copiedLink, setCopiedLink] = useState<string>();
  const copied = created !== undefined && copiedLink === created.link;
  const onlyOne = administrators.length <= 1;

  useEffect(() => {
    if (!actionData) return;
    if (actionData.ok && actionData.link) {
      inviteForm.current?.reset();
      linkRef.current?.focus();
      linkRef.current?.select();
    } else noticeRef.current?.focus();
  }, [actionData]);

  async function copy() {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.link);
      setCopiedLink(created.link);
    } catch {
      linkRef.current?.select();
    }
  }

  return (
    <AdminShell email={admin.email} unreadMessages={admin.unreadMessages}>
      <div className="mx-auto max-w-4xl">
        <h1 className="text-3xl font-bold">Administrators</h1>
        <p className="mt-1 text-neutral-700">
          Everyone here can sign in to the admin and change the whole site. Invite a colleague with a one-time link.
        </p>

        <div ref={noticeRef} tabIndex={-1} className="mt-4 outline-none">
          <div role="status">
            {actionData?.ok && actionData.message && (
              <p className="rounded-md border border-brand-600 bg-brand-50 px-3 py-2 text-brand-900">
                {actionData.message}
              </p>
            )}
          </div>
          <div role="alert">
            {actionData && !actionData.ok && (
              <p className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
                {actionData.error}
              </p>
            )}
          </div>
        </div>

        <section aria-labelledby="invite-heading" className="mt-6 rounded-lg border border-neutral-200 bg-white p-5">
          <h2 id="invite-heading" className="text-xl font-semibold">
            Invite an administrator
          </h2>
          <Form ref={inviteForm} method="post" className="mt-3 flex flex-wrap items-end gap-3">
            <div className="flex min-w-0 flex-1 flex-col gap-1 sm:max-w-sm">
              <label htmlFor="invite-email" className="text-sm font-semibold text-neutral-800">
                Their e-mail address
              </label>
              <input
                id="invite-email"
                name="email"
                type="email"
                required
                maxLength={EMAIL_MAX_LENGTH}
                autoComplete="off"
                defaultValue={actionData && !actionData.ok ? actionData.email : undefined}
                className="h-11 w-full rounded-md border border-neutral-400 px-3 text-base"
              />
            </div>
            <button
              type="submit"
              name="intent"
              value="invite"
              disabled={busy === "invite"}
              className="h-11 rounded-md bg-brand-700 px-4 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
            >
              {busy === "invite" ? "Creating link..." : "Invite"}
            </button>
          </Form>
          {created && (
            <div className="mt-4 rounded-md border border-brand-600 bg-brand-50 p-4">
              <p className="text-sm text-brand-900">
                Send this link to <strong>{created.email}</strong> yourself (e-mail, chat). It works once, until{" "}
                {dateTime(created.expiresAt)}, and is not shown again.
              </p>
              <label htmlFor="invite-link" className="mt-3 block text-sm font-semibold text-neutral-800">
                Invitation link for {created.email}
              </label>
              <div className="mt-1 flex flex-wrap gap-2">
                <input
                  ref={linkRef}
                  id="invite-link"
                  readOnly
                  value={created.link}
                  onFocus={(event) => event.currentTarget.select()}
                  className="h-11 w-full min-w-0 rounded-md border border-neutral-400 bg-white px-3 font-mono text-sm sm:w-auto sm:flex-1"
                />
                <button
                  type="button"
                  onClick={() => void copy()}
                  className="h-11 rounded-md border border-brand-700 bg-white px-4 font-medium text-brand-800 hover:bg-brand-100"
                >
                  {copied ? "Copied" : "Copy link"}
                </button>
              </div>
            </div>
          )}
        </section>

        <section aria-labelledby="admins-heading" className="mt-8">
          <h2 id="admins-heading" className="text-xl font-semibold">
            {administrators.length === 1 ? "1 administrator" : `${administrators.length} administrators`}
          </h2>
          <ul className="mt-3 flex flex-col gap-3">
            {administrators.map((person) => {
              const self = person.id === admin.id;
              const label = person.name ?? person.email;
              return (
                <li
                  key={person.id}
                  className="flex flex-wrap items-start justify-between gap-3 rounded-lg border border-neutral-200 bg-white p-4"
                >
                  <div className="min-w-0">
                    <p className="font-semibold break-words">
                      {label}
                      {self && <span className="ml-2 text-sm font-normal text-neutral-700">(you)</span>}
                    </p>
                    {person.name && <p className="break-words text-neutral-800">{person.email}</p>}
                    <p className="mt-1 text-sm text-neutral-700">
                      Added {formatDate(person.addedAt)} · Last sign-in{" "}
                      {person.lastSignInAt ? dateTime(person.lastSignInAt) : "not known"}
                    </p>
                  </div>
                  {!onlyOne && (
                    <Form
                      method="post"
                      onSubmit={(event) => {
                        const question = self
                          ? "Remove yourself as an administrator? You will be signed out and cannot sign in again."
                          : `Remove ${label} as an administrator? They are signed out at once.`;
                        if (!window.confirm(question)) event.preventDefault();
                      }}
                    >
                      <input type="hidden" name="id" value={person.id} />
                      <button
                        type="submit"
                        name="intent"
                        value="remove"
                        aria-label={self ? "Remove yourself" : `Remove ${label}`}
                        disabled={busyId === person.id}
                        className={`${buttonClass} border-red-300 text-red-800 hover:bg-red-50`}
                      >
                        Remove
                      </button>
                    </Form>
                  )}
                </li>
              );
            })}
          </ul>
          {onlyOne && (
            <p className="mt-2 text-sm text-neutral-700">
              The only administrator cannot be removed; invite another one first.
            </p>
          )}
        </section>

        <section aria-labelledby="invites-heading" className="mt-8">
          <h2 id="invites-heading" className="text-xl font-semibold">
            Pending invitations
          </h2>
          {invites.length === 0 ? (
            <p className="mt-2 text-neutral-700">None. A link is valid for {INVITE_HOURS} hours and works once.</p>
          ) : (
            <ul className="mt-3 flex flex-col gap-3">
              {invites.map((invite) => (
                <li
                  key={invite.id}
                  className="flex flex-wrap items-start justify-between gap-3 rounded-lg border border-neutral-200 bg-white p-4"
                >
                  <div className="min-w-0">
                    <p className="break-words font-semibold">{invite.email}</p>
                    <p className="mt-1 text-sm text-neutral-700">
                      Invited by {invite.invitedBy} · valid until {dateTime(invite.expiresAt)}
                    </p>
                  </div>
                  <Form method="post">
                    <input type="hidden" name="id" value={invite.id} />
                    <button
                      type="submit"
                      name="intent"
                      value="revoke"
                      aria-label={`Withdraw the invitation for ${invite.email}`}
                      disabled={busyId === invite.id}
                      className={`${buttonClass} border-neutral-400 hover:bg-neutral-100`}
                    >
                      Withdraw
                    </button>
                  </Form>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </AdminShell>
  );
}
