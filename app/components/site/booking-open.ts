import { useRouteLoaderData } from "react-router";

/**
 * Whether visitors can book a call now (the root loader reads it from Admin >
 * Booking). The public pages link to /book only then: a link to a page that
 * says booking is closed would be a dead end.
 */
export function useBookingOpen(): boolean {
  return useRouteLoaderData<{ bookingOpen?: boolean }>("root")?.bookingOpen === true;
}

/** The same for the contact modal, a React root of its own without the router: the page's `<body data-booking>`. */
export const bookingOpenInPage = (): boolean =>
  typeof document !== "undefined" && document.body.dataset.booking === "open";
