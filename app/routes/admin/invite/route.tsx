import { data, Form, redirect, useNavigation } from "react-router";
import { AdminCard, CardSubmit, FormAlert } from "~/components/admin/sign-in-card";
import { NewPasswordFields } from "~/components/admin/new-password-fields";
import { TextField } from "~/components/ui/text-field";
import { newPasswordProblem } from "~/lib/account";
import { ADMIN_NAME_MAX_LENGTH, type InviteState } from "~/lib/administrators";
import { pageMeta } from "~/lib/seo";
import {
  acceptInvite,
  AdminsError,
  INVITE_STATE_MESSAGES,
  InviteError,
  inviteState,
  busyRefusal,
  HashingBusyError,
} from "~/server/identity/index.server";
import { recordAudit } from "~/server/audit/index.server";
import { formRetryAfter, readFormBody, retryAfterHeaders } from "~/server/platform/http.server";
import type { Route } from "./+types/route";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";

const TITLES: Record<Exclude<InviteState, "valid">, string> = {
  unknown: "Invitation link not valid",
  used: "Invitation already used",
  revoked: "Invitation withdrawn",
  expired: "Invitation expired",
};

/** /admin/invite/{token}: the invitee names themself and sets a password (ADR 038). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { state, email } = await inviteState(context.get(dbContext), params.token);
  if (state === "valid") return { state, email: email!, message: null };
  return data(
    { state, email: null, message: INVITE_STATE_MESSAGES[state] },
    { status: state === "unknown" ? 404 : 410 },
  );
}

/** A throttled or busy password check's Retry-After reaches the page's answer. */
export function headers(args: Route.HeadersArgs) {
  return formRetryAfter(args);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await readFormBody(request);
  const name = String(form.get("name") ?? "");
  const password = String(form.get("password") ?? "");
  const problem = newPasswordProblem(password, String(form.get("confirm") ?? ""));
  if (problem) return data({ error: problem, name }, { status: 400 });
  try {
    const { user, setCookie } = await acceptInvite(context.get(dbContext), { token: params.token, name, password });
    await recordAudit({
      action: "admin-joined",
      admin: user,
      target: user.email,
      request,
      clientAddress: context.get(clientAddressContext),
    });
    return redirect("/admin", { headers: { "Set-Cookie": setCookie } });
  } catch (error) {
    if (error instanceof InviteError) return data({ error: error.message, name }, { status: 403 });
    if (error instanceof AdminsError) return data({ error: error.message, name }, { status: error.status });
    if (error instanceof HashingBusyError) {
      const busy = busyRefusal();
      return data({ error: busy.error, name }, { status: busy.status, headers: retryAfterHeaders(busy) });
    }
    throw error;
  }
}

export const meta = () => pageMeta({ title: "Join as an administrator | Blog Admin", noindex: true });

export default function AdminInvite({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  if (loaderData.state !== "valid") {
    return (
      <AdminCard title={TITLES[loaderData.state]}>
        <p className="text-neutral-700">{loaderData.message}</p>
        <p className="mt-4">
          <a href="/admin/login" className="text-brand-700 underline">
            Go to sign-in
          </a>
        </p>
      </AdminCard>
    );
  }
  return (
    <AdminCard title="Join as an administrator">
      <p className="mb-4 text-sm text-neutral-700">
        You were invited as <strong className="break-words">{loaderData.email}</strong>. Choose your name and a
        password; you sign in with this e-mail address.
      </p>
      <Form method="post" className="flex flex-col gap-4">
        <FormAlert message={actionData?.error} />
        <input type="hidden" name="username" autoComplete="username" value={loaderData.email} />
        <TextField
          label="Your name"
          name="name"
          autoComplete="name"
          required
          maxLength={ADMIN_NAME_MAX_LENGTH}
          defaultValue={actionData?.name}
        />
        <NewPasswordFields />
        <CardSubmit busy={busy} busyLabel="Joining...">
          Join and sign in
        </CardSubmit>
      </Form>
    </AdminCard>
  );
}
