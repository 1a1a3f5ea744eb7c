import { data, Link, redirect, useNavigation } from "react-router";
import { AdminScreen } from "~/components/admin/admin-screen";
import { bookingAdminText as text } from "~/content/booking-admin";
import { pageCount } from "~/lib/admin-lists";
import { formatCallTime } from "~/lib/call-time";
import { pageMeta } from "~/lib/seo";
import { listUpcomingBookings, parseBookingScreenQuery, readAvailability } from "~/server/booking/index.server";
import { dbContext } from "~/server/platform/context.server";
import { jsonError } from "~/server/platform/http.server";
import type { Route } from "./+types/route";
import { bookingScreenAction } from "./actions.server";
import { AvailabilityForm } from "./availability-form";
import { valuesOf } from "./form-model";
import { UpcomingCalls } from "./upcoming-calls";

/**
 * /admin/booking?page=: the owner's availability for booked calls and the
 * calls to come (ADR 071). Times are formatted here, in the owner's zone, so
 * the page reads the same before and after hydration.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = parseBookingScreenQuery(new URL(request.url));
  if (!query.ok) throw jsonError(400, query.message);
  const db = context.get(dbContext);
  const [availability, { bookings, total }] = await Promise.all([
    readAvailability(db),
    listUpcomingBookings(db, query.value),
  ]);
  const pages = pageCount(total);
  // Past the end (the calls took place, an old link): the last page.
  if (query.value.page > pages) throw redirect(`/admin/booking?page=${pages}`);
  return {
    availability,
    // The server's list, not the browser's: one list for the markup and its hydration.
    timeZones: ["UTC", ...Intl.supportedValuesOf("timeZone").filter((zone) => zone !== "UTC")],
    calls: bookings.map(({ id, start, name, messageId }) => ({
      id,
      start,
      when: formatCallTime(start, availability.timeZone),
      name,
      messageId,
    })),
    total,
    page: query.value.page,
    pages,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { answer, status } = await bookingScreenAction(request, context);
  return data(answer, { status });
}

export const meta = () => pageMeta({ title: `${text.title} | Blog Admin`, noindex: true });

export default function AdminBooking({ loaderData, actionData }: Route.ComponentProps) {
  const { availability, timeZones, calls, total, page, pages } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formMethod === "POST";
  const saveAnswer = actionData && "saved" in actionData ? actionData : undefined;
  const cancelAnswer = actionData && "cancelled" in actionData ? actionData : undefined;
  const refused = saveAnswer && !saveAnswer.saved ? saveAnswer : undefined;
  return (
    <AdminScreen width="3xl" title={text.title} intro={text.intro}>
      <p className="mt-2">
        <Link to="/book" className="font-medium text-brand-800 underline underline-offset-2">
          {text.viewPage}
        </Link>
      </p>
      {/* A new form once the saved availability is loaded (the answer comes first), showing it as stored;
          a refusal changes nothing stored, so the rows stay as typed. */}
      <AvailabilityForm
        key={JSON.stringify(availability)}
        initial={refused?.values ?? valuesOf(availability)}
        timeZones={timeZones}
        answer={saveAnswer}
        busy={busy}
      />
      <UpcomingCalls calls={calls} total={total} page={page} pages={pages} answer={cancelAnswer} />
    </AdminScreen>
  );
}
