/** Booking's interface: what routes, server/ and other domains may use (README.md here). */
export { readAvailability } from "./availability.server";
export { cancelBookingBy, saveAvailabilityBy } from "./owner-changes.server";
export { bookCall } from "./book.server";
export {
  BookingError,
  cancelBooking,
  findBooking,
  findBookingByToken,
  freeSlots,
  listUpcomingBookings,
  queueRestoredReminders,
  rescheduleBooking,
} from "./bookings.server";
export { isBookingRow } from "./restore.server";
export { init } from "./init.server";
export { parseSlotsQuery, addDays, todayIn } from "./slots.server";
export { parseBookingListQuery, parseBookingScreenQuery } from "./list-query.server";
