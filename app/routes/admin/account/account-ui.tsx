/**
 * What the account screen's sections share: the result of its action, the
 * notice that shows it, and the look of sections, fields and buttons.
 */
export type Intent =
  "setup-2fa" | "cancel-2fa" | "enable-2fa" | "disable-2fa" | "change-password" | "revoke-session" | "revoke-others";

export type ActionResult =
  | { intent: Intent; ok: true; message?: string; recoveryCodes?: string[] }
  /** `field`: the refusal belongs beside the password field (wrong, throttled, busy), not atop the section. */
  | { intent: Intent; ok: false; error: string; field?: "password" };

export const sectionClass = "mt-8 rounded-lg border border-neutral-200 bg-white p-5";
export const inputClass = "w-full rounded-md border border-neutral-400 px-3 py-2 text-base";
export const primaryButton =
  "rounded-md bg-brand-700 px-5 py-2.5 font-medium text-white hover:bg-brand-800 disabled:opacity-60";
export const secondaryButton =
  "rounded-md border border-brand-700 px-4 py-2 font-medium text-brand-800 hover:bg-brand-50 disabled:opacity-60";

export const dateTime = (iso: string) =>
  new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC";

export function Notice({ result }: { result: ActionResult | undefined }) {
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
