/** The account screen's list of the browsers signed in to this account, each with "Sign out". */
import { Form } from "react-router";
import { dateTime, Notice, secondaryButton, sectionClass, type ActionResult } from "./account-ui";
import type { Route } from "./+types/route";

type Session = Route.ComponentProps["loaderData"]["sessions"][number];

export function SessionsSection({
  sessions,
  result,
  busy,
}: {
  sessions: Session[];
  result: ActionResult | undefined;
  busy: boolean;
}) {
  return (
    <section aria-labelledby="sessions-heading" className={sectionClass}>
      <h2 id="sessions-heading" className="text-lg font-semibold">
        Where you are signed in
      </h2>
      <p className="mt-1 text-sm text-neutral-700">
        Each browser signed in to this account, with the network it signed in from. Sign out any you do not recognise,
        then change your password.
      </p>
      <Notice result={result} />
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
                {session.address ? `From ${session.address}` : "Network not recorded"} · last seen{" "}
                {dateTime(session.lastSeenAt)} · signed in {dateTime(session.createdAt)}
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
          <button type="submit" disabled={busy} className={secondaryButton}>
            Sign out everywhere else
          </button>
        </Form>
      )}
    </section>
  );
}
