/** The account screen's password section: changing it signs out the other sessions. */
import { Form } from "react-router";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "~/lib/account";
import { inputClass, Notice, primaryButton, sectionClass, type ActionResult } from "./account-ui";

export function PasswordSection({ result, busy }: { result: ActionResult | undefined; busy: boolean }) {
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
