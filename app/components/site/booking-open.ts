import { useRouteLoaderData } from "react-router";

// Server-rendered pages only: React Router's runtime must not reach the
// islands' bundle (ADR 018), so the contact modal reads the page instead.

/**
 * Whether visitors can book a call now (the root loader reads it from Admin >
 * Booking). The public pages link to /book only then: a link to a page that
 * says booking is closed would be a dead end.
 */
export function useBookingOpen(): boolean {
  return useRouteLoaderData<{ bookingOpen?: boolean }>("root")?.bookingOpen === true;
}
