/** The owner's Booking screen (Admin > Booking, ADR 071) and the inbox's words for a booked call. */

export const WEEKDAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;

/** The owner's Booking screen (Admin > Booking). */
export const bookingAdminText = {
  title: "Booking",
  intro: "When visitors can book a call with you on the /book page. Each booking also lands in the inbox as a lead.",
  enabled: "Visitors can book calls",
  timeZone: "Your time zone",
  timeZoneHint: "Your hours and days off are in this time zone; visitors see the times in their own.",
  slotMinutes: "Call length (minutes)",
  bufferMinutes: "Free time after each call (minutes)",
  minNoticeHours: "Minimum notice (hours)",
  horizonDays: "How far ahead (days)",
  weeklyLegend: "Weekly hours",
  weeklyHint: "Add one or more ranges for each day you take calls. A day with none has no calls.",
  addRange: (day: string) => `Add hours on ${day}`,
  removeRange: (day: string, start: string, end: string) => `Remove ${start} to ${end} on ${day}`,
  from: "From",
  to: "To",
  noHours: "No calls",
  daysOffLegend: "Days off",
  daysOffHint: "Dates with no calls, such as holidays.",
  addDayOff: "Add a day off",
  removeDayOff: (day: string) => `Remove ${day}`,
  dayOffLabel: "Date",
  save: "Save",
  saving: "Saving...",
  saved: "Booking settings saved.",
  upcomingHeading: "Upcoming calls",
  upcomingEmpty: "No calls are booked.",
  openLead: (name: string) => `Open the lead from ${name}`,
  viewPage: "See the booking page",
  // The form's other words: bounds, the names of repeated fields, the refusal's summary.
  bounds: (min: number, max: number) => `From ${min} to ${max}.`,
  enabledHint: "When this is off, the booking page asks visitors to send a message instead.",
  /** A day's range as fields and messages name it: "Tuesday", then "Tuesday, range 2". */
  rangeName: (day: string, n: number) => (n === 1 ? day : `${day}, range ${n}`),
  /** A repeated field's accessible name: "From (Tuesday)", "Date (day off 2)". */
  fieldOf: (label: string, of: string) => `${label} (${of})`,
  removeRangeOf: (range: string) => `Remove the hours on ${range}`,
  remove: "Remove",
  dayFull: (n: number) => `At most ${n} ranges a day.`,
  dayOffName: (n: number) => `day off ${n}`,
  noDaysOff: "No days off.",
  refused: "Nothing was saved. Please correct:",
  upcomingCount: (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "call" : "calls"} to come.`,
  upcomingPages: "Pages of upcoming calls",
  cancelCall: "Cancel the call...",
  cancelCallQuestion: (name: string, when: string) =>
    `Cancel the call with ${name} on ${when}? They are told by e-mail, and the time is offered again.`,
  cancelCallConfirm: "Yes, cancel the call",
  callCancelledNow: (name: string, when: string) => `The call with ${name} on ${when} is cancelled.`,
  callGone: "That call was already cancelled, or has taken place.",
  // The inbox's card and the lead screen, for a lead that booked a call.
  callBooked: (when: string) => `Call booked for ${when}`,
  callCancelled: (when: string) => `Call cancelled (was ${when})`,
  manageCall: "Cancel it on the Booking screen",
};
