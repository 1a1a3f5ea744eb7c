import { subscribeForm } from "~/content/newsletter-form";
import { EMAIL_MAX_LENGTH } from "~/lib/email";
import { PrivacyLink } from "./privacy-link";

const TONES = {
  light: {
    heading: "text-lg font-semibold text-neutral-900",
    intro: "text-sm text-neutral-700",
    label: "text-sm font-medium text-neutral-800",
    error: "text-sm font-medium text-red-800",
    offset: "focus:ring-offset-white",
  },
  /** In the footer: its headings' style and greys on its near-black, an error colour that reads on it. */
  dark: {
    heading: "text-sm font-semibold uppercase tracking-wide text-white",
    intro: "text-sm text-neutral-300",
    label: "text-sm font-medium text-neutral-200",
    error: "text-sm font-medium text-red-300",
    offset: "focus:ring-offset-neutral-950",
  },
};

/**
 * The newsletter's sign-up (ADR 072): a plain form posted to /newsletter, so
 * it works without JavaScript on every page it sits on (the end of an
 * article, /blog, the footer). `idPrefix` keeps its ids apart when a page
 * has two; `error` and `email` come back from a refused post.
 *
 * `landmark` names the form after its heading, which makes it a form
 * landmark; the footer's copy is not one, as two landmarks of one name on a
 * page (an article's end and the footer) tell a screen reader nothing.
 * `inline` sets the heading beside the field from the medium width up.
 */
export function SubscribeForm({
  idPrefix,
  email = "",
  error,
  heading = true,
  landmark = true,
  inline = false,
  tone = "light",
  className = "",
}: {
  idPrefix: string;
  email?: string;
  error?: string;
  heading?: boolean;
  landmark?: boolean;
  inline?: boolean;
  tone?: keyof typeof TONES;
  className?: string;
}) {
  const field = `${idPrefix}-email`;
  const colours = TONES[tone];
  const errorId = `${field}-error`;
  const introId = `${idPrefix}-intro`;
  const describedBy = [error ? errorId : "", heading ? introId : ""].filter(Boolean).join(" ");
  const columns = inline && heading ? "md:grid md:grid-cols-2 md:items-end md:gap-x-10" : "";
  return (
    <form
      method="post"
      action="/newsletter"
      className={`${columns} ${className}`}
      aria-labelledby={heading && landmark ? `${idPrefix}-heading` : undefined}
    >
      {heading && (
        <div>
          <h2 id={`${idPrefix}-heading`} className={colours.heading}>
            {subscribeForm.heading}
          </h2>
          <p id={introId} className={`mt-2 ${colours.intro}`}>
            {subscribeForm.intro}
          </p>
        </div>
      )}
      <div className={`mt-3 flex flex-wrap items-end gap-2 ${columns ? "md:mt-0" : ""}`}>
        <div className="flex min-w-0 flex-1 basis-40 flex-col gap-1">
          <label htmlFor={field} className={colours.label}>
            {subscribeForm.label}
          </label>
          <input
            id={field}
            type="email"
            name="email"
            required
            autoComplete="email"
            defaultValue={email}
            maxLength={EMAIL_MAX_LENGTH}
            aria-invalid={error ? true : undefined}
            // eslint-disable-next-line jsx-a11y/no-autofocus -- the refused address: focus goes to it as the page loads, with or without script (as the booking form's)
            autoFocus={Boolean(error)}
            aria-describedby={describedBy || undefined}
            className="min-h-11 w-full rounded-md border border-neutral-400 bg-white px-3 py-2 text-base text-neutral-900 focus:border-brand-700 focus:outline-none focus:ring-2 focus:ring-brand-600"
          />
        </div>
        <button
          type="submit"
          className={`min-h-11 rounded-md bg-brand-700 px-5 py-2 font-semibold text-white hover:bg-brand-800 focus:outline-none focus:ring-2 focus:ring-brand-600 focus:ring-offset-2 ${colours.offset}`}
        >
          {subscribeForm.submit}
        </button>
      </div>
      {error && (
        <p id={errorId} className={`mt-2 ${colours.error} ${columns ? "md:col-start-2" : ""}`}>
          {error}
        </p>
      )}
      <PrivacyLink tone={tone} className={`mt-1 ${columns ? "md:col-start-2" : ""}`} />
    </form>
  );
}
