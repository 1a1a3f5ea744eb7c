import { data, type MetaDescriptor } from "react-router";
import { bookingPage, managePage } from "~/content/booking";
import { Island } from "~/islands/island";
import { islandsPage } from "~/islands/page";
import { PREVIEW_HEADERS } from "~/lib/share-links";
import {
  BookingError,
  cancelBooking,
  findBookingByToken,
  readAvailability,
  rescheduleBooking,
} from "~/server/booking/index.server";
import { dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed, readFormBody } from "~/server/platform/http.server";
import { siteSettingsFor } from "~/server/settings/index.server";
import { slotWindow } from "../slot-window.server";
import type { Route } from "./+types/route";
import { StandingCall } from "./standing-call";
import { CancelledCall, LinkNotValid, PastCall } from "./views";

/**
 * /book/manage/{token} (ADR 071): the page a booking's e-mails link to. It
 * shows the call's time and lets the visitor cancel it (a second step asks
 * first) or move it to another free time (the slots as /book shows them).
 * Every change is a POST, so following or prefetching the link changes
 * nothing. The token is the only key: the page is kept by no cache, indexed
 * by no search engine and never sent on as a referrer (server/secret-page-headers.ts
 * sets the same on any answer under this path). An unknown or forged token
 * is a 404 with its own words.
 */
export const handle = islandsPage;

export function headers() {
  return PREVIEW_HEADERS;
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const { companyName, socialUrls } = await siteSettingsFor(request);
  const company = { name: companyName, socialUrls };
  const booking = await findBookingByToken(db, params.token);
  if (!booking) return data({ state: "not-found" as const, company }, { status: 404 });
  const availability = await readAvailability(db);
  const ownerZone = availability.timeZone;
  if (booking.status === "cancelled") return { state: "cancelled" as const, company };
  const now = new Date();
  if (Date.parse(booking.start) <= now.getTime())
    return { state: "past" as const, company, start: booking.start, ownerZone };
  const from = new URL(request.url).searchParams.get("from");
  return {
    state: "standing" as const,
    company,
    start: booking.start,
    ownerZone,
    path: `/book/manage/${params.token}`,
    dates: availability.enabled ? await slotWindow(db, availability, from, now) : null,
  };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  if (request.method !== "POST") throw methodNotAllowed(["GET", "POST"]);
  const db = context.get(dbContext);
  const booking = await findBookingByToken(db, params.token);
  // The loader shows why nothing was done: not found, cancelled, or past.
  if (!booking || booking.status === "cancelled" || Date.parse(booking.start) <= Date.now()) return null;
  const form = await readFormBody(request);
  switch (form.get("intent")) {
    case "cancel":
      return { step: "confirm-cancel" as const };
    case "cancel-confirmed":
      await cancelBooking(db, booking);
      return null;
    case "reschedule": {
      const start = form.get("start") ?? "";
      if (!start || start.length > 40)
        return data({ step: "refused" as const, message: bookingPage.noneChosen }, { status: 400 });
      try {
        const moved = await rescheduleBooking(db, await readAvailability(db), booking, start);
        return { step: "moved" as const, start: moved.start };
      } catch (error) {
        if (!(error instanceof BookingError)) throw error;
        const message = error.status === 409 ? bookingPage.taken : bookingPage.notOffered;
        return data({ step: "refused" as const, message }, { status: error.status });
      }
    }
    default:
      throw jsonError(400, "Unknown intent");
  }
}

export function meta({ data }: Route.MetaArgs): MetaDescriptor[] {
  return [
    { title: data ? `${managePage.title} | ${data.company.name}` : managePage.title },
    { name: "robots", content: "noindex, nofollow" },
    { name: "referrer", content: "no-referrer" },
  ];
}

export default function ManageBooking({ loaderData, actionData }: Route.ComponentProps) {
  const { company } = loaderData;
  return (
    <>
      <Island name="site-header" props={{ companyName: company.name }} />
      <main id="main" className="mx-auto w-full max-w-4xl px-4 py-12">
        {loaderData.state === "not-found" ? (
          <LinkNotValid />
        ) : loaderData.state === "cancelled" ? (
          <CancelledCall />
        ) : loaderData.state === "past" ? (
          <PastCall start={loaderData.start} ownerZone={loaderData.ownerZone} />
        ) : (
          <StandingCall {...loaderData} outcome={actionData ?? null} />
        )}
      </main>
      <Island name="site-footer" props={{ companyName: company.name, socialUrls: company.socialUrls }} />
    </>
  );
}
