import { privacyLink } from "~/content/privacy";

const TONES = {
  light: "text-neutral-700 hover:text-brand-900",
  /** In the footer: its greys on its near-black. */
  dark: "text-neutral-300 hover:text-white",
};

/**
 * The link to /privacy beside a form that takes a visitor's details (the
 * contact modal, the booking form, the newsletter's sign-up): a plain link,
 * so it works without JavaScript, 24 px tall so a finger finds it on a phone.
 */
export function PrivacyLink({ tone = "light", className = "" }: { tone?: keyof typeof TONES; className?: string }) {
  return (
    <p className={`text-sm ${className}`}>
      <a href="/privacy" className={`inline-flex min-h-6 items-center underline underline-offset-2 ${TONES[tone]}`}>
        {privacyLink}
      </a>
    </p>
  );
}
