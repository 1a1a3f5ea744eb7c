import { Link } from "react-router";
import { subscribersAdminText as text } from "~/content/subscribers-admin";
import { formatDate } from "~/lib/dates";

export interface MailingRow {
  id: string;
  title: string;
  status: "sending" | "done";
  recipients: number;
  sent: number;
  failed: number;
  createdAt: string;
}

/** The Posts screen's list filtered by the post's title: the post is one click from its editor there. */
const postHref = (title: string) => `/admin?${new URLSearchParams({ q: title.slice(0, 200) }).toString()}`;

/**
 * "Posts e-mailed": the newest mailings, each with its post, when it started
 * and its numbers; "Sending..." while its batches are still going out.
 */
export function MailingsList({ mailings }: { mailings: MailingRow[] }) {
  return (
    <section aria-labelledby="mailings-heading" className="mt-10">
      <h2 id="mailings-heading" className="text-xl font-semibold">
        {text.mailingsHeading}
      </h2>
      {mailings.length === 0 ? (
        <p className="mt-2 max-w-prose text-neutral-700">{text.mailingsNone}</p>
      ) : (
        <>
          <p className="mt-1 max-w-prose text-sm text-neutral-700">{text.mailingsIntro}</p>
          <ul className="mt-3 flex flex-col gap-2">
            {mailings.map((mailing) => (
              <li
                key={mailing.id}
                className="flex flex-wrap items-baseline justify-between gap-x-6 gap-y-2 rounded-lg border border-neutral-200 bg-white p-3 text-sm"
              >
                <div className="min-w-0 flex-[1_1_16rem]">
                  <Link
                    to={postHref(mailing.title)}
                    className="font-semibold break-words text-brand-800 underline underline-offset-2"
                  >
                    {mailing.title}
                  </Link>
                  <p className="mt-1 text-neutral-700">
                    <time dateTime={mailing.createdAt}>{text.mailingStarted(formatDate(mailing.createdAt))}</time>
                    {" · "}
                    <span className={mailing.status === "sending" ? "font-semibold text-amber-900" : undefined}>
                      {mailing.status === "sending" ? text.sending : text.done}
                    </span>
                  </p>
                </div>
                <dl className="flex gap-x-5">
                  {(
                    [
                      [text.recipients, mailing.recipients],
                      [text.sent, mailing.sent],
                      [text.failed, mailing.failed],
                    ] as const
                  ).map(([name, value]) => (
                    <div key={name} className="flex flex-col">
                      <dt className="text-neutral-700">{name}</dt>
                      <dd className="font-semibold tabular-nums">{value.toLocaleString("en-US")}</dd>
                    </div>
                  ))}
                </dl>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
