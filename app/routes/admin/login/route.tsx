import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import { AdminCard, CardSubmit, FormAlert } from "~/components/admin/sign-in-card";
import { TextField } from "~/components/ui/text-field";
import { CODE_MAX_LENGTH, CODE_REQUIRED, MAX_PASSWORD_LENGTH } from "~/lib/account";
import { EMAIL_MAX_LENGTH } from "~/lib/email";
import { pageMeta } from "~/lib/seo";
import { recordSignIn } from "~/server/audit/index.server";
import { countAdmins, getAdmin, signIn } from "~/server/identity/index.server";
import { formRetryAfter, readFormBody, retryAfterHeaders } from "~/server/platform/http.server";
import type { Route } from "./+types/route";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  if (await getAdmin(request)) throw redirect("/admin");
  return { needsSetup: (await countAdmins(context.get(dbContext))) === 0 };
}

/** A throttled or busy password check's Retry-After reaches the page's answer. */
export function headers(args: Route.HeadersArgs) {
  return formRetryAfter(args);
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormBody(request);
  const email = String(form.get("email") ?? "");
  const password = String(form.get("password") ?? "");
  const code = String(form.get("code") ?? "").trim();
  const codeStep = form.get("step") === "code";
  if (!email || !password) {
    const error = codeStep ? "Enter your password again, then the code." : "Enter your e-mail address and password.";
    return data({ error, email, twoFactor: codeStep }, { status: 400 });
  }
  // The same bounds as POST /api/auth/login, before any lookup or hashing.
  if (email.length > EMAIL_MAX_LENGTH || password.length > MAX_PASSWORD_LENGTH || code.length > CODE_MAX_LENGTH) {
    return data({ error: "Enter a valid e-mail address and password.", email: "", twoFactor: false }, { status: 400 });
  }
  const result = await signIn(
    { email, password, code: code || undefined, userAgent: request.headers.get("User-Agent") },
    context.get(clientAddressContext),
  );
  await recordSignIn(result, email, request, context.get(clientAddressContext), { codeGiven: code !== "" });
  if (!result.ok) {
    return data(
      { error: result.error, email, twoFactor: "twoFactorRequired" in result && result.twoFactorRequired === true },
      { status: result.status, headers: retryAfterHeaders(result) },
    );
  }
  return redirect("/admin", { headers: { "Set-Cookie": result.setCookie } });
}

export const meta = () => pageMeta({ title: "Sign in | Blog Admin", noindex: true });

const noSubscription = () => () => {};
/** False in the server's HTML and while hydrating, true once the page's script runs. */
const useHydrated = () =>
  useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );

export default function AdminLogin({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const twoFactor = actionData?.twoFactor === true;
  // With the script running, the e-mail and password typed in step one stay
  // in their (hidden) fields and go with the code; without it, the page came
  // back from the server, which never echoes a password: it is asked again.
  const keepsPassword = useHydrated();
  const [recovery, setRecovery] = useState(false);
  // Switching between the app's code and a recovery code clears the last answer's message.
  const [switchedAfter, setSwitchedAfter] = useState<typeof actionData>(undefined);
  const codeRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (twoFactor) codeRef.current?.focus();
  }, [twoFactor, actionData, recovery]);

  // The code step's alert is the step's own message: "Enter the code ..." is what the heading says.
  const alert =
    (twoFactor && actionData?.error === CODE_REQUIRED) || switchedAfter === actionData ? undefined : actionData?.error;
  return (
    <AdminCard title={twoFactor ? "Two-factor sign-in" : "Sign in"}>
      {loaderData.needsSetup && (
        <p className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          No administrator exists yet. Open the setup link printed in the server log to create one.
        </p>
      )}
      <Form method="post" className="flex flex-col gap-4">
        <FormAlert message={alert} />
        <div className="flex flex-col gap-4" hidden={twoFactor && keepsPassword}>
          <TextField
            label="E-mail"
            name="email"
            type="email"
            autoComplete="username"
            defaultValue={actionData?.email}
          />
          <TextField label="Password" name="password" type="password" autoComplete="current-password" />
        </div>
        {twoFactor && (
          <>
            <input type="hidden" name="step" value="code" />
            <p className="text-sm text-neutral-800">
              {recovery
                ? "Enter one of the recovery codes you saved when you turned on two-factor sign-in. Each works once."
                : "Open your authenticator app and enter the 6-digit code it shows for this site."}
              {actionData?.email && keepsPassword && (
                <>
                  {" "}
                  Signing in as <strong className="break-words">{actionData.email}</strong>.
                </>
              )}
            </p>
            <div className="flex flex-col gap-1">
              <label htmlFor="sign-in-code" className="text-sm font-medium text-neutral-800">
                {recovery ? "Recovery code" : "Code"}
              </label>
              <input
                ref={codeRef}
                id="sign-in-code"
                key={recovery ? "recovery" : "totp"}
                name="code"
                type="text"
                required
                maxLength={CODE_MAX_LENGTH}
                autoComplete={recovery ? "off" : "one-time-code"}
                inputMode={recovery ? "text" : "numeric"}
                pattern={recovery ? undefined : "[0-9 ]*"}
                autoCapitalize="off"
                spellCheck={false}
                className="rounded-md border border-neutral-400 px-3 py-2 font-mono text-lg tracking-widest"
              />
            </div>
          </>
        )}
        <CardSubmit busy={busy} busyLabel={twoFactor ? "Checking..." : "Signing in..."}>
          {twoFactor ? "Verify and sign in" : "Sign in"}
        </CardSubmit>
        {twoFactor && (
          <div className="flex flex-wrap justify-between gap-2 text-sm">
            <button
              type="button"
              onClick={() => {
                setRecovery((value) => !value);
                setSwitchedAfter(actionData);
              }}
              className="text-brand-800 underline underline-offset-2 hover:text-brand-900"
            >
              {recovery ? "Use the app's code instead" : "Use a recovery code"}
            </button>
            <a href="/admin/login" className="text-brand-800 underline underline-offset-2 hover:text-brand-900">
              Start again
            </a>
          </div>
        )}
      </Form>
    </AdminCard>
  );
}
