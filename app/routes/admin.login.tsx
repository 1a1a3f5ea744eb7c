import { data, Form, redirect, useNavigation } from "react-router";
import { AdminCard, FormAlert } from "~/components/site/admin-shell";
import { TextField } from "~/components/ui/text-field";
import { MAX_PASSWORD_LENGTH } from "~/lib/account";
import { EMAIL_MAX_LENGTH } from "~/lib/email";
import { pageMeta } from "~/lib/seo";
import { recordSignIn } from "~/server/audit.server";
import { countAdmins, getAdmin, signIn } from "~/server/auth.server";
import { getDb } from "~/server/db/index.server";
import { readFormBody } from "~/server/http.server";
import type { Route } from "./+types/admin.login";

export async function loader({ request }: Route.LoaderArgs) {
  if (await getAdmin(request)) throw redirect("/admin");
  return { needsSetup: (await countAdmins(getDb())) === 0 };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormBody(request);
  const email = String(form.get("email") ?? "");
  const password = String(form.get("password") ?? "");
  if (!email || !password) return data({ error: "Enter your e-mail address and password.", email }, { status: 400 });
  // The same bounds as POST /api/auth/login, before any lookup or hashing.
  if (email.length > EMAIL_MAX_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    return data({ error: "Enter a valid e-mail address and password.", email: "" }, { status: 400 });
  }
  const result = await signIn({ email, password }, context.clientAddress);
  await recordSignIn(result, email, request, context.clientAddress);
  if (!result.ok) return data({ error: result.error, email }, { status: result.status });
  return redirect("/admin", { headers: { "Set-Cookie": result.setCookie } });
}

export const meta = () => pageMeta({ title: "Sign in | Blog Admin", noindex: true });

export default function AdminLogin({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  return (
    <AdminCard title="Sign in">
      {loaderData.needsSetup && (
        <p className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          No administrator exists yet. Open the setup link printed in the server log to create one.
        </p>
      )}
      <Form method="post" className="flex flex-col gap-4">
        <FormAlert message={actionData?.error} />
        <TextField label="E-mail" name="email" type="email" autoComplete="username" defaultValue={actionData?.email} />
        <TextField label="Password" name="password" type="password" autoComplete="current-password" />
        <button
          type="submit"
          disabled={busy}
          className="rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-800 disabled:opacity-60"
        >
          {busy ? "Signing in..." : "Sign in"}
        </button>
      </Form>
    </AdminCard>
  );
}
