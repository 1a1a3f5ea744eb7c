import { data } from "react-router";
import { CallTime } from "~/components/site/booking/call-time";
import { templateOf } from "./island-text";
import { bookingPage } from "~/content/booking";
import { Island, PageIsland } from "~/islands/island";
import { islandsPage } from "~/islands/page";
import { pageMeta } from "~/lib/seo";
import { bookCall, readAvailability } from "~/server/booking/index.server";
import { clientAddressContext, configContext, dbContext } from "~/server/platform/context.server";
import { BODY_LIMITS, formRetryAfter, methodNotAllowed, readFormBody } from "~/server/platform/http.server";
import { siteSettingsFor } from "~/server/settings/index.server";
import type { Route } from "./+types/route";
import { BookingForm, type FormError, type TypedFields } from "./booking-form";
import { primaryButton } from "./date-links";
import { slotWindow } from "./slot-window.server";

/**
 * /book (issue 45, ADR 071): a visitor books a call. The free slots of
 * two weeks (`?from=` pages them), grouped by day in the owner's zone and,
 * once the page's script runs, in the visitor's; then their details. The
 * form posts here and works without JavaScript: the action runs booking's
 * policy (bookCall) and shows the confirmation, or the form again with an
 * alert, everything typed kept and the slots read fresh.
 */
export const handle = islandsPage;

/**
 * Every answer is for this moment and this visitor (a booking takes a slot
 * at once): kept by no cache. The page cache never keys /book either
 * (app/server/page-cache/key.server.ts). A throttled post says when to come back.
 */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return { "Cache-Control": "no-store", ...formRetryAfter({ actionHeaders }) };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const [availability, settings] = await Promise.all([readAvailability(db), siteSettingsFor(request)]);
  const from = new URL(request.url).searchParams.get("from");
  return {
    company: { name: settings.companyName, socialUrls: settings.socialUrls },
    siteUrl: context.get(configContext).siteUrl,
    enabled: availability.enabled,
    ownerZone: availability.timeZone,
    slotMinutes: availability.slotMinutes,
    dates: availability.enabled ? await slotWindow(db, availability, from, new Date()) : null,
  };
}

const text = (form: URLSearchParams, name: string) => form.get(name) ?? "";

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") throw methodNotAllowed(["GET", "POST"]);
  // Read first, whatever the outcome: a refused visitor gets back what they typed.
  const form = await readFormBody(request, BODY_LIMITS.contact);
  const typed: TypedFields = {
    start: text(form, "start"),
    name: text(form, "name"),
    email: text(form, "email"),
    phone: text(form, "phone"),
    message: text(form, "message"),
  };
  const outcome = await bookCall(context.get(dbContext), request, context.get(clientAddressContext), () =>
    Promise.resolve({ ...typed, timeZone: text(form, "timeZone") }),
  );
  if (outcome.kind === "booked") return { state: "booked" as const, start: outcome.booking.start };
  const refused = (status: number, error: FormError, headers?: HeadersInit) =>
    data({ state: "refused" as const, typed, error }, { status, headers });
  if (outcome.kind === "throttled")
    return refused(
      429,
      { field: null, message: bookingPage.throttled },
      { "Retry-After": String(Math.ceil(outcome.retryAfterMs / 1000)) },
    );
  const field = (Object.keys(typed) as Array<keyof TypedFields>).find((name) => name === outcome.field) ?? null;
  // A chosen slot that is gone says so in the page's words; any other refusal names its field.
  const message =
    field === "start" && typed.start
      ? outcome.status === 409
        ? bookingPage.taken
        : bookingPage.notOffered
      : outcome.message;
  return refused(outcome.status, { field, message });
}

export function meta({ data }: Route.MetaArgs) {
  if (!data) return [];
  return pageMeta({
    title: `${bookingPage.title} | ${data.company.name}`,
    description: bookingPage.description,
    canonical: `${data.siteUrl}/book`,
  });
}

export default function Book({ loaderData, actionData }: Route.ComponentProps) {
  const { company, enabled, ownerZone, slotMinutes, dates } = loaderData;
  const refused = actionData?.state === "refused" ? actionData : null;
  return (
    <>
      <Island name="site-header" props={{ companyName: company.name }} />
      <main id="main" className="mx-auto w-full max-w-4xl px-4 py-12">
        {actionData?.state === "booked" ? (
          <>
            <h1 className="text-4xl font-bold">{bookingPage.booked}</h1>
            <PageIsland
              name="call-time"
              component={CallTime}
              props={{
                start: actionData.start,
                ownerZone,
                sentence: templateOf(bookingPage.bookedText),
                className: "mt-4 text-lg text-neutral-800",
              }}
            />
            <p className="mt-8">
              <a href="/" className={`inline-block ${primaryButton}`}>
                {bookingPage.bookAnother}
              </a>
            </p>
          </>
        ) : (
          <>
            <h1 className="text-4xl font-bold">{bookingPage.heading}</h1>
            <p className="mt-3 text-lg text-neutral-800">{bookingPage.introLength(slotMinutes)}</p>
            {enabled && dates ? (
              <BookingForm
                dates={dates}
                ownerZone={ownerZone}
                typed={refused?.typed ?? null}
                error={refused?.error ?? null}
              />
            ) : (
              <div className="mt-8 rounded-md border border-neutral-300 bg-neutral-50 p-6">
                <p className="text-neutral-800">{bookingPage.closed}</p>
                <Island
                  name="contact-button"
                  props={{ label: bookingPage.closedLink, className: `mt-4 ${primaryButton}` }}
                />
              </div>
            )}
          </>
        )}
      </main>
      <Island name="site-footer" props={{ companyName: company.name, socialUrls: company.socialUrls }} />
    </>
  );
}
