/**
 * The account screen's two-factor section: off (turn on with the password),
 * being set up (the secret and its QR code), the recovery codes shown once,
 * or on (turn off with the password). ADR 037, ADR 047.
 */
import { useEffect, useRef, useState } from "react";
import { Form } from "react-router";
import { CurrentPasswordField } from "~/components/admin/current-password-field";
import { CODE_MAX_LENGTH } from "~/lib/account";
import {
  dateTime,
  inputClass,
  Notice,
  primaryButton,
  secondaryButton,
  sectionClass,
  type ActionResult,
  type Intent,
} from "./account-ui";

export function TwoFactorSection({
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
