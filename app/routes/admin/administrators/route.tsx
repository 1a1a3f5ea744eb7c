import { ShownOnceField } from "~/components/admin/shown-once-field";
import { useEffect, useRef, useState } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import { CurrentPasswordField } from "~/components/admin/current-password-field";
import { RemoveAdministratorDialog, type RemovalTarget } from "./remove-administrator-dialog";
import { INVITE_HOURS, invitePath, type InviteListItem } from "~/lib/administrators";
import { formatDate } from "~/lib/dates";
import { EMAIL_MAX_LENGTH } from "~/lib/email";
import { MAX_PASSWORD_LENGTH } from "~/lib/account";
import { pageMeta } from "~/lib/seo";
import {
  AdminsError,
  createInvite,
  listAdministrators,
  listPendingInvites,
  removeAdministrator,
  revokeInvite,
  signedInAdmin,
  checkOwnPassword,
  PASSWORD_MISSING,
  signOut,
} from "~/server/identity/index.server";
import { recordAudit } from "~/server/audit/index.server";
import { formRetryAfter, readFormBody, retryAfterHeaders } from "~/server/platform/http.server";
import type { Route } from "./+types/route";
import { clientAddressContext, configContext, dbContext } from "~/server/platform/context.server";

/** /admin/administrators: who can sign in, invitations, removal (ADR 038). */
export async function loader({ context }: Route.LoaderArgs) {
  const admin = signedInAdmin(context);
  const db = context.get(dbContext);
  const [administrators, invites] = await Promise.all([listAdministrators(db), listPendingInvites(db)]);
  return { admin: { id: admin.id }, administrators, invites };
}

/** A throttled or busy password check's Retry-After reaches the page's answer. */
export function headers(args: Route.HeadersArgs) {
  return formRetryAfter(args);
}

interface ActionResult {
  intent: string;
  ok: boolean;
  /** ok: what was done; the invitation's details come apart. */
  message?: string;
  error?: string;
  /** The refusal belongs beside the password field (wrong, throttled, busy), not atop the page. */
  field?: "password";
  email?: string;
  link?: string;
  expiresAt?: string;
}

const reply = (result: ActionResult, status = 200, headers?: HeadersInit) => data(result, { status, headers });

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  const form = await readFormBody(request);
  const intent = String(form.get("intent") ?? "");
  const audit = { admin, request, clientAddress: context.get(clientAddressContext) };
  const db = context.get(dbContext);
  // What was typed stays in the box when an invitation is refused.
  const typed = intent === "invite" ? String(form.get("email") ?? "").slice(0, EMAIL_MAX_LENGTH + 1) : undefined;
  if (intent === "invite" || intent === "remove") {
    // Both ask the current password again (ADR 046): a borrowed session alone must not add or remove anyone.
    const password = String(form.get("password") ?? "").slice(0, MAX_PASSWORD_LENGTH);
    const check = password
      ? await checkOwnPassword(admin, password, context.get(clientAddressContext))
      : { ok: false as const, status: 400 as const, error: PASSWORD_MISSING };
    if (!check.ok) {
      const refusal = { intent, ok: false, error: check.error, field: "password" as const, email: typed };
      return reply(refusal, check.status, retryAfterHeaders(check));
    }
  }
  try {
    if (intent === "invite") {
      const { token, ...invite } = await createInvite(db, typed ?? "", admin);
      await recordAudit({ action: "admin-invited", target: invite.email, ...audit });
      return reply({
        intent,
        ok: true,
        email: invite.email,
        link: `${context.get(configContext).siteUrl}${invitePath(token)}`,
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
      return reply({
        intent,
        ok: true,
        message: `${email} was removed and signed out. Invitations they made that nobody used were withdrawn.`,
      });
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
  const noticeRef = useRef<HTMLDivElement>(null);
  // The administrator being removed, and the answer on screen when the question opened:
  // a later answer to "remove" closes it (done) or shows inside it (refused).
  const [removal, setRemoval] = useState<{ target: RemovalTarget; before: typeof actionData }>();
  const removalAnswer =
    removal && actionData !== removal.before && actionData?.intent === "remove" ? actionData : undefined;
  const removing = removal && !removalAnswer?.ok ? removal.target : undefined;
  // Refusals of the password sit beside their field, and the removal's inside its question: not here.
  const pageError =
    actionData && !actionData.ok && actionData.field !== "password" && actionData.intent !== "remove"
      ? actionData.error
      : undefined;
  const onlyOne = administrators.length <= 1;

  useEffect(() => {
    if (!actionData || (actionData.ok && actionData.link)) return;
    if (actionData.ok || (actionData.field !== "password" && actionData.intent !== "remove"))
      noticeRef.current?.focus();
  }, [actionData]);

  return (
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
          {pageError && (
            <p className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">{pageError}</p>
          )}
        </div>
      </div>

      <InviteSection actionData={actionData} busy={busy === "invite"} />

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
                  <button
                    type="button"
                    aria-label={self ? "Remove yourself" : `Remove ${label}`}
                    aria-haspopup="dialog"
                    // Never disabled: the question is modal while a removal is on its way, and
                    // a disabled button could not take focus back when it closes (Escape
                    // during the reload after a refused password left focus nowhere).
                    onClick={() => setRemoval({ target: { id: person.id, label, self }, before: actionData })}
                    className={`${buttonClass} border-red-300 text-red-800 hover:bg-red-50`}
                  >
                    Remove
                  </button>
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
      <RemoveAdministratorDialog
        target={removing}
        refusal={removalAnswer}
        busy={busy === "remove"}
        onCancel={() => setRemoval(undefined)}
      />

      <PendingInvites invites={invites} busyId={busyId} />
    </div>
  );
}

/** The invitation form (their e-mail and the inviter's password, ADR 046) and the link it made, shown once. */
function InviteSection({ actionData, busy }: { actionData: ActionResult | undefined; busy: boolean }) {
  const created =
    actionData?.ok && actionData.link && actionData.email && actionData.expiresAt
      ? { link: actionData.link, email: actionData.email, expiresAt: actionData.expiresAt }
      : undefined;
  const linkRef = useRef<HTMLInputElement>(null);
  const inviteForm = useRef<HTMLFormElement>(null);
  const passwordError =
    actionData?.intent === "invite" && !actionData.ok && actionData.field === "password" ? actionData.error : undefined;

  useEffect(() => {
    if (!actionData?.ok || !actionData.link) return;
    inviteForm.current?.reset();
    linkRef.current?.focus();
    linkRef.current?.select();
  }, [actionData]);

  return (
    <section aria-labelledby="invite-heading" className="mt-6 rounded-lg border border-neutral-200 bg-white p-5">
      <h2 id="invite-heading" className="text-xl font-semibold">
        Invite an administrator
      </h2>
      <Form
        ref={inviteForm}
        method="post"
        className="mt-3 grid gap-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-start"
      >
        <div className="flex min-w-0 flex-col gap-1">
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
        <CurrentPasswordField
          id="invite-password"
          label="Your password"
          error={passwordError}
          attempt={actionData}
          className="min-w-0"
        />
        <div className="sm:pt-6">
          <button
            type="submit"
            name="intent"
            value="invite"
            disabled={busy}
            className="h-11 rounded-md bg-brand-700 px-4 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
          >
            {busy ? "Creating link..." : "Invite"}
          </button>
        </div>
      </Form>
      {created && (
        <div className="mt-4 rounded-md border border-brand-600 bg-brand-50 p-4">
          <p className="text-sm text-brand-900">
            Send this link to <strong>{created.email}</strong> yourself (e-mail, chat). It works once, until{" "}
            {dateTime(created.expiresAt)}, and is not shown again.
          </p>
          <ShownOnceField
            id="invite-link"
            label={`Invitation link for ${created.email}`}
            value={created.link}
            inputRef={linkRef}
            copyLabel="Copy link"
            copiedLabel="Copied"
          />
        </div>
      )}
    </section>
  );
}

/** Invitations not yet used, each with its Withdraw button. */
function PendingInvites({
  invites,
  busyId,
}: {
  invites: InviteListItem[];
  busyId: FormDataEntryValue | null | undefined;
}) {
  return (
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
  );
}
