import { data, Form, redirect, useNavigation } from "react-router";
import { AdminCard, CardSubmit, FormAlert } from "~/components/admin/sign-in-card";
import { NewPasswordFields } from "~/components/admin/new-password-fields";
import { TextField } from "~/components/ui/text-field";
import { newPasswordProblem } from "~/lib/account";
import { pageMeta } from "~/lib/seo";
import { completeSetup, isSetupTokenValid } from "~/server/identity/index.server";
import { formRetryAfter, readFormBody, retryAfterHeaders } from "~/server/platform/http.server";
import type { Route } from "./+types/route";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const valid = await isSetupTokenValid(context.get(dbContext), token);
  return data({ token: valid ? token : null }, { status: valid ? 200 : 403 });
}

/** A throttled or busy password check's Retry-After reaches the page's answer. */
export function headers(args: Route.HeadersArgs) {
  return formRetryAfter(args);
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormBody(request);
  const token = String(form.get("token") ?? "");
  const email = String(form.get("email") ?? "");
  const password = String(form.get("password") ?? "");
  const problem = newPasswordProblem(password, String(form.get("confirm") ?? ""));
  if (problem) return data({ error: problem, email }, { status: 400 });
  const result = await completeSetup(
    context.get(dbContext),
    { token, email, password },
    context.get(clientAddressContext),
  );
  if (!result.ok)
    return data({ error: result.error, email }, { status: result.status, headers: retryAfterHeaders(result) });
  return redirect("/admin", { headers: { "Set-Cookie": result.setCookie } });
}

export const meta = () => pageMeta({ title: "Create the administrator | Blog Admin", noindex: true });

export default function AdminSetup({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  if (!loaderData.token) {
    return (
      <AdminCard title="Setup link not valid">
        <p className="text-neutral-700">
          This setup link is invalid, expired or has already been used. If an administrator exists,{" "}
          <a href="/admin/login" className="text-brand-700 underline">
            sign in
          </a>
          ; otherwise restart the server to print a new link.
        </p>
      </AdminCard>
    );
  }
  return (
    <AdminCard title="Create the administrator">
      <Form method="post" className="flex flex-col gap-4">
        <FormAlert message={actionData?.error} />
        <input type="hidden" name="token" value={loaderData.token} />
        <TextField label="E-mail" name="email" type="email" autoComplete="username" defaultValue={actionData?.email} />
        <NewPasswordFields />
        <CardSubmit busy={busy} busyLabel="Creating...">
          Create administrator
        </CardSubmit>
      </Form>
    </AdminCard>
  );
}
