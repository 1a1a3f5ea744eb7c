import { useEffect, useRef, useState } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import { useAdminShell } from "~/components/admin/admin-shell";
import { CurrentPasswordField } from "~/components/admin/current-password-field";
import { CODE_MAX_LENGTH, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "~/lib/account";
import { pageMeta } from "~/lib/seo";
import {
  AccountError,
  changeOwnPassword,
  checkOwnPassword,
  listOwnSessions,
  PASSWORD_MISSING,
  requireAdminPage,
  revokeOtherSessions,
  revokeOwnSession,
} from "~/server/identity/index.server";
import { getDb } from "~/server/db/index.server";
import { formRetryAfter, readFormBody, retryAfterHeaders } from "~/server/platform/http.server";
import { busyRefusal, HashingBusyError } from "~/server/identity/index.server";
import {
  beginSetup,
  disableTwoFactor,
  enableTwoFactor,
  pendingSetup,
  qrCodeSvg,
  TwoFactorError,
  twoFactorStatus,
} from "~/server/identity/index.server";
import { recordAudit } from "~/server/audit/index.server";
import type { Route } from "./+types/route";

/** /admin/account: two-factor sign-in, the password and this account's sessions (ADR 037). */
export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdminPage(request);
  const db = getDb();
  const status = await twoFactorStatus(db, admin.id);
  const setup = status.pending ? await pendingSetup(db, admin) : undefined;
  return data(
    {
      twoFactor: status,
      setup: setup && {
        secret: setup.secret,
        qrCode: `data:image/svg+xml;base64,${Buffer.from(await qrCodeSvg(setup.otpauthUrl)).toString("base64")}`,
      },
      sessions: await listOwnSessions(db, admin, request),
    },
    // A secret being set up is on this page: never kept by a cache.
    { headers: { "Cache-Control": "no-store" } },
  );
}

/** A throttled or busy password check's Retry-After reaches the page's answer. */
export function headers(args: Route.HeadersArgs) {
  return formRetryAfter(args);
}

type Intent =
  "setup-2fa" | "cancel-2fa" | "enable-2fa" | "disable-2fa" | "change-password" | "revoke-session" | "revoke-others";

type ActionResult =
  | { intent: Intent; ok: true; message?: string; recoveryCodes?: string[] }
  /** `field`: the refusal belongs beside the password field (wrong, throttled, busy), not atop the section. */
  | { intent: Intent; ok: false; error: string; field?: "password" };

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdminPage(request);
  const form = await readFormBody(request);
  const intent = String(form.get("intent") ?? "") as Intent;
  const text = (name: string, max: number) => String(form.get(name) ?? "").slice(0, max);
  const db = getDb();
  const refuse = (error: string, status = 400, headers?: HeadersInit) =>
    data<ActionResult>({ intent, ok: false, error }, { status, headers });
  const done = (result: Omit<Extract<ActionResult, { ok: true }>, "intent" | "ok"> = {}) =>
    data<ActionResult>({ intent, ok: true, ...result });
  /** The current password asked again (ADR 046); a refusal answered beside its field. */
  const passwordRefusal = async () => {
    const password = text("password", MAX_PASSWORD_LENGTH);
    const check = password
      ? await checkOwnPassword(admin, password, context.clientAddress)
      : { ok: false as const, status: 400 as const, error: PASSWORD_MISSING };
    if (check.ok) return undefined;
    return data<ActionResult>(
      { intent, ok: false, error: check.error, field: "password" },
      { status: check.status, headers: retryAfterHeaders(check) },
    );
  };

  switch (intent) {
    case "setup-2fa": {
      const refused = await passwordRefusal();
      if (refused) return refused;
      try {
        await beginSetup(db, admin);
      } catch (error) {
        if (error instanceof TwoFactorError) return refuse(error.message, error.status);
        throw error;
      }
      return done();
    }
    case "cancel-2fa":
      await db
        .updateTable("admin_users")
        .set({ totp_pending_secret: null })
        .where("id", "=", admin.id)
        .where("totp_secret", "is", null)
        .execute();
      return done();
    case "enable-2fa": {
      const result = await enableTwoFactor(db, admin.id, text("code", CODE_MAX_LENGTH), context.clientAddress);
      if (!result.ok) return refuse(result.error, result.status);
      // Sessions opened with the password alone end: a borrowed one must not outlive 2FA (ADR 046).
      await revokeOtherSessions(db, admin, request);
      await recordAudit({ action: "two-factor-enabled", admin, request, clientAddress: context.clientAddress });
      return done({ recoveryCodes: result.recoveryCodes });
    }
    case "disable-2fa": {
      const refused = await passwordRefusal();
      if (refused) return refused;
      await disableTwoFactor(db, admin.id);
      await recordAudit({ action: "two-factor-disabled", admin, request, clientAddress: context.clientAddress });
      return done({ message: "Two-factor sign-in is off. Your password alone signs you in." });
    }
    case "change-password": {
      const next = text("newPassword", MAX_PASSWORD_LENGTH + 1);
      if (next !== text("confirmPassword", MAX_PASSWORD_LENGTH + 1)) return refuse("The two new passwords differ.");
      if (next.length > MAX_PASSWORD_LENGTH) return refuse("The new password is too long.");
      const check = await checkOwnPassword(admin, text("currentPassword", MAX_PASSWORD_LENGTH), context.clientAddress);
      if (!check.ok) {
        const error = check.status === 403 ? "The current password is not correct." : check.error;
        return refuse(error, check.status, retryAfterHeaders(check));
      }
      try {
        await changeOwnPassword(db, admin, request, next);
      } catch (error) {
        if (error instanceof AccountError) return refuse(`${error.message}.`);
        if (error instanceof HashingBusyError) {
          const busy = busyRefusal();
          return refuse(busy.error, busy.status, retryAfterHeaders(busy));
        }
        throw error;
      }
      await recordAudit({ action: "password-changed", admin, request, clientAddress: context.clientAddress });
      return done({ message: "Password changed. Your other sessions were signed out." });
    }
    case "revoke-session":
      if (!(await revokeOwnSession(db, admin, text("session", 64))))
        return refuse("That session has already ended.", 404);
      await recordAudit({
        action: "sessions-signed-out",
        admin,
        request,
        clientAddress: context.clientAddress,
        target: "one session",
      });
      return done({ message: "That session was signed out." });
    case "revoke-others": {
      const count = await revokeOtherSessions(db, admin, request);
      await recordAudit({
        action: "sessions-signed-out",
        admin,
        request,
        clientAddress: context.clientAddress,
        target: `${count} other session${count === 1 ? "" : "s"}`,
      });
      return done({ message: `Signed out everywhere else (${count} session${count === 1 ? "" : "s"}).` });
    }
    default:
      throw redirect("/admin/account");
  }
}

export const meta = () => pageMeta({ title: "Account | Blog Admin", noindex: true });

const sectionClass = "mt-8 rounded-lg border border-neutral-200 bg-white p-5";
const inputClass = "w-full rounded-md border border-neutral-400 px-3 py-2 text-base";
const primaryButton =
  "rounded-md bg-brand-700 px-5 py-2.5 font-medium text-white hover:bg-brand-800 disabled:opacity-60";
const secondaryButton =
  "rounded-md border border-brand-700 px-4 py-2 font-medium text-brand-800 hover:bg-brand-50 disabled:opacity-60";

const dateTime = (iso: string) =>
  new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC";

export default function AdminAccount({ loaderData, actionData }: Route.ComponentProps) {
  const { twoFactor, setup, sessions } = loaderData;
  const admin = useAdminShell();
  const navigation = useNavigation();
  const pending = (intent: Intent) =>
    navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const result = actionData;
  const resultFor = (intents: Intent[]) => (result && intents.includes(result.intent) ? result : undefined);

  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="text-3xl font-bold">Account</h1>
      <p className="mt-1 text-neutral-700">
        Signed in as <strong className="break-all">{admin.email}</strong>.
      </p>

      <TwoFactorSection
        email={admin.email}
        twoFactor={twoFactor}
        setup={setup}
        result={resultFor(["setup-2fa", "cancel-2fa", "enable-2fa", "disable-2fa"])}
        pending={pending}
      />

      <PasswordSection result={resultFor(["change-password"])} busy={pending("change-password")} />

      <section aria-labelledby="sessions-heading" className={sectionClass}>
        <h2 id="sessions-heading" className="text-lg font-semibold">
          Where you are signed in
        </h2>
        <p className="mt-1 text-sm text-neutral-700">
          Each browser signed in to this account. Sign out any you do not recognise, then change your password.
        </p>
        <Notice result={resultFor(["revoke-session", "revoke-others"])} />
        <ul className="mt-4 divide-y divide-neutral-200">
          {sessions.map((session) => (
            <li key={session.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div className="min-w-0">
                <p className="font-medium">
                  {session.browser}
                  {session.current && (
                    <span className="ml-2 rounded bg-brand-50 px-2 py-0.5 text-sm font-semibold text-brand-900">
                      This device
                    </span>
                  )}
                </p>
                <p className="text-sm text-neutral-700">
                  {session.address ?? "Address not recorded"} · last seen {dateTime(session.lastSeenAt)} · signed in{" "}
                  {dateTime(session.createdAt)}
                </p>
              </div>
              {!session.current && (
                <Form method="post">
                  <input type="hidden" name="intent" value="revoke-session" />
                  <input type="hidden" name="session" value={session.id} />
                  <button
                    type="submit"
                    className={secondaryButton}
                    aria-label={`Sign out ${session.browser}, last seen ${dateTime(session.lastSeenAt)}`}
                  >
                    Sign out
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
        {sessions.some((session) => !session.current) && (
          <Form method="post" className="mt-4">
            <input type="hidden" name="intent" value="revoke-others" />
            <button type="submit" disabled={pending("revoke-others")} className={secondaryButton}>
              Sign out everywhere else
            </button>
          </Form>
        )}
      </section>
    </div>
  );
}

/** Two-factor sign-in: off (turn on with the password), being set up, the recovery codes once, or on (turn off with the password). */
function TwoFactorSection({
  email,
  twoFactor,
  setup,
  result,
  pending,
}: {
  email: string;
  twoFactor: { enabled: boolean; enabledAt: string | null; recoveryCodesLeft: number; retiredRecoveryCodes: number };
  setup: { secret: string; qrCode: string } | undefined;
  result: ActionResult | undefined;
  pending: (intent: Intent) => boolean;
}) {
  const recoveryCodes = result?.ok && result.intent === "enable-2fa" ? result.recoveryCodes : undefined;
  // A refusal of the password sits beside its field; any other answer atop the section.
  const passwordError = (intent: Intent) =>
    result?.intent === intent && !result.ok && result.field === "password" ? result.error : undefined;
  const notice = result && !(!result.ok && result.field === "password") && result.intent !== "enable-2fa";
  return (
    <section aria-labelledby="two-factor-heading" className={sectionClass}>
      <h2 id="two-factor-heading" className="text-lg font-semibold">
        Two-factor sign-in
      </h2>
      <Notice result={notice ? result : undefined} />
      {recoveryCodes ? (
        <RecoveryCodes codes={recoveryCodes} email={email} />
      ) : twoFactor.enabled ? (
        <>
          <p className="mt-2 text-neutral-800">
            <span className="font-semibold text-brand-800">On</span>
            {twoFactor.enabledAt && ` since ${dateTime(twoFactor.enabledAt)}`}. Signing in asks for a code from your
            authenticator app after the password. {twoFactor.recoveryCodesLeft} of 10 recovery codes are unused.
          </p>
          {twoFactor.retiredRecoveryCodes > 0 && <RetiredCodesNotice />}
          <Form method="post" className="mt-4 flex flex-col gap-3 sm:max-w-sm">
            <input type="hidden" name="intent" value="disable-2fa" />
            <CurrentPasswordField
              id="disable-password"
              label="Your password, to turn it off"
              error={passwordError("disable-2fa")}
              attempt={result}
            />
            <div>
              <button type="submit" disabled={pending("disable-2fa")} className={secondaryButton}>
                {pending("disable-2fa") ? "Turning off..." : "Turn off two-factor sign-in"}
              </button>
            </div>
          </Form>
        </>
      ) : setup ? (
        <SetupStep
          setup={setup}
          error={result?.intent === "enable-2fa" && !result.ok ? result.error : undefined}
          busy={pending("enable-2fa")}
        />
      ) : (
        <>
          <p className="mt-2 text-neutral-800">
            <span className="font-semibold">Off.</span> With it on, signing in asks for a 6-digit code from an
            authenticator app on your phone (for example Google Authenticator, Microsoft Authenticator or 1Password)
            after the password, so a stolen password alone is not enough. Turning it on signs out your other sessions.
          </p>
          <Form method="post" className="mt-4 flex flex-col gap-3 sm:max-w-sm">
            <input type="hidden" name="intent" value="setup-2fa" />
            <CurrentPasswordField
              id="setup-password"
              label="Your password, to turn it on"
              error={passwordError("setup-2fa")}
              attempt={result}
            />
            <div>
              <button type="submit" disabled={pending("setup-2fa")} className={primaryButton}>
                {pending("setup-2fa") ? "Preparing..." : "Turn on two-factor sign-in"}
              </button>
            </div>
          </Form>
        </>
      )}
    </section>
  );
}

function Notice({ result }: { result: ActionResult | undefined }) {
  if (!result) return null;
  if (!result.ok) {
    return (
      <p role="alert" className="mt-3 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
        {result.error}
      </p>
    );
  }
  if (!result.message) return null;
  return (
    <p role="status" className="mt-3 rounded-md border border-brand-600 bg-brand-50 px-3 py-2 text-brand-900">
      {result.message}
    </p>
  );
}

/** Recovery codes from before ADR 047 (50 bits) are no longer accepted; the way to new ones is off and on again. */
function RetiredCodesNotice() {
  return (
    <p className="mt-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900">
      Your earlier recovery codes no longer work: they were made by an older version of this site and were too short to
      stay safe if a copy of its database leaked. To get new ones, turn two-factor sign-in off below, then on again.
    </p>
  );
}

/** The secret in groups of four, as authenticator apps show and accept it. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, "$1 ").trim();

function SetupStep({
  setup,
  error,
  busy,
}: {
  setup: { secret: string; qrCode: string };
  error?: string;
  busy: boolean;
}) {
  const codeRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (error) codeRef.current?.focus();
  }, [error]);
  return (
    <div className="mt-3">
      <ol className="list-decimal space-y-2 pl-5 text-neutral-800">
        <li>Open your authenticator app and add an account by scanning this QR code.</li>
        <li>Enter the 6-digit code the app then shows, to confirm.</li>
      </ol>
      <div className="mt-4 flex flex-col gap-6 sm:flex-row sm:items-start">
        <img
          src={setup.qrCode}
          alt="QR code to add this site to an authenticator app"
          width={192}
          height={192}
          className="h-48 w-48 shrink-0 self-center rounded border border-neutral-200 bg-white sm:self-start"
        />
        <div className="min-w-0 flex-1">
          <p className="text-sm text-neutral-800">Cannot scan it? Enter this key in the app instead (time-based):</p>
          <p
            className="mt-1 break-words rounded bg-neutral-100 px-2 py-1 font-mono text-base"
            data-testid="totp-secret"
          >
            {grouped(setup.secret)}
          </p>
          <Form method="post" className="mt-4 flex flex-col gap-2">
            <input type="hidden" name="intent" value="enable-2fa" />
            <label htmlFor="enable-code" className="text-sm font-medium text-neutral-800">
              Code from the app
            </label>
            <input
              ref={codeRef}
              id="enable-code"
              name="code"
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9 ]*"
              maxLength={CODE_MAX_LENGTH}
              required
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "enable-code-error" : undefined}
              className={`${inputClass} max-w-40 font-mono text-lg tracking-widest`}
            />
            {error && (
              <p id="enable-code-error" role="alert" className="text-sm text-red-700">
                {error}
              </p>
            )}
            <div className="mt-2 flex flex-wrap gap-3">
              <button type="submit" disabled={busy} className={primaryButton}>
                {busy ? "Checking..." : "Confirm and turn on"}
              </button>
            </div>
          </Form>
          <Form method="post" className="mt-3">
            <input type="hidden" name="intent" value="cancel-2fa" />
            <button type="submit" className="text-sm text-brand-800 underline underline-offset-2">
              Cancel the setup
            </button>
          </Form>
        </div>
      </div>
    </div>
  );
}

function RecoveryCodes({ codes, email }: { codes: string[]; email: string }) {
  const [copied, setCopied] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const text = `Recovery codes for ${email} (Blog Admin). Each signs in once in place of the app's code.\n\n${codes.join("\n")}\n`;
  return (
    <div className="mt-3">
      <p role="status" className="rounded-md border border-brand-600 bg-brand-50 px-3 py-2 text-brand-900">
        Two-factor sign-in is on. Your other sessions were signed out.
      </p>
      <h3 ref={headingRef} tabIndex={-1} className="mt-4 font-semibold outline-none">
        Save your recovery codes now
      </h3>
      <p className="mt-1 text-neutral-800">
        If you lose your phone, each of these codes signs you in once instead of the app&apos;s code. They are shown
        only this once: copy or download them and keep them somewhere safe, away from this computer.
      </p>
      <ol className="mt-3 grid grid-cols-1 gap-x-6 gap-y-1 rounded bg-neutral-100 p-4 font-mono text-base sm:grid-cols-2">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="mt-4 flex flex-wrap gap-3">
        <button
          type="button"
          className={secondaryButton}
          onClick={() => {
            void navigator.clipboard.writeText(text).then(() => setCopied(true));
          }}
        >
          {copied ? "Copied" : "Copy codes"}
        </button>
        <a
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download="blog-admin-recovery-codes.txt"
          className={secondaryButton}
        >
          Download as a text file
        </a>
        <a href="/admin/account" className={primaryButton}>
          I have saved them
        </a>
      </div>
    </div>
  );
}

function PasswordSection({ result, busy }: { result: ActionResult | undefined; busy: boolean }) {
  return (
    <section aria-labelledby="password-heading" className={sectionClass}>
      <h2 id="password-heading" className="text-lg font-semibold">
        Password
      </h2>
      <p className="mt-1 text-sm text-neutral-700">
        Changing it signs out your other sessions; this one stays signed in.
      </p>
      <Notice result={result} />
      <Form method="post" key={result?.ok ? "changed" : "form"} className="mt-4 flex flex-col gap-3 sm:max-w-sm">
        <input type="hidden" name="intent" value="change-password" />
        {(
          [
            ["currentPassword", "Current password", "current-password"],
            ["newPassword", `New password (at least ${MIN_PASSWORD_LENGTH} characters)`, "new-password"],
            ["confirmPassword", "New password again", "new-password"],
          ] as const
        ).map(([name, label, autoComplete]) => (
          <div key={name} className="flex flex-col gap-1">
            <label htmlFor={`password-${name}`} className="text-sm font-medium text-neutral-800">
              {label}
            </label>
            <input
              id={`password-${name}`}
              name={name}
              type="password"
              autoComplete={autoComplete}
              required
              minLength={name === "currentPassword" ? undefined : MIN_PASSWORD_LENGTH}
              maxLength={MAX_PASSWORD_LENGTH}
              className={inputClass}
            />
          </div>
        ))}
        <div>
          <button type="submit" disabled={busy} className={primaryButton}>
            {busy ? "Changing..." : "Change password"}
          </button>
        </div>
      </Form>
    </section>
  );
}
