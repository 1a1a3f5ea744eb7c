/**
 * Booking a call (ADR 071): the words of the /book page and of the page a
 * visitor manages a booking on. The e-mails' words are in booking-mail.ts,
 * the Booking screen's in booking-admin.ts, so the public pages' code
 * carries neither. Times are formatted by the callers.
 */

export const bookingPage = {
  title: "Book a Call",
  description: "Pick a time for a short introductory call, and get a calendar invitation by e-mail.",
  heading: "Book a call",
  intro:
    "Pick a time that suits you for a 30-minute introductory call. We will talk through what you need and how we can help.",
  introLength: (minutes: number) =>
    `Pick a time that suits you for a ${minutes}-minute introductory call. We will talk through what you need and how we can help.`,
  closed: "We are not booking calls online right now. Please send us a message instead and we will reply soon.",
  closedLink: "Send a message",
  noSlots: "There are no free times in these dates. Please look at later dates, or send us a message.",
  timesIn: (zone: string) => `Times are shown in ${zone}.`,
  timesInYours: (zone: string) => `Times are shown in your time zone, ${zone}.`,
  pickLegend: "Pick a time",
  laterDates: "Later dates",
  earlierDates: "Earlier dates",
  /** The name of the Earlier/Later dates links' navigation. */
  datesNav: "Other dates",
  detailsLegend: "Your details",
  name: "Name",
  email: "Email",
  phone: "Phone (optional)",
  message: "What would you like to talk about? (optional)",
  submit: "Book the call",
  submitting: "Booking...",
  chosen: (when: string) => `Your call: ${when}`,
  noneChosen: "Pick a time above first.",
  taken: "Sorry, that time was just taken. Please pick another; your details are kept.",
  notOffered: "That time is no longer offered. Please pick another; your details are kept.",
  failed: "Sorry, the booking could not be made. Please try again.",
  throttled: "Too many bookings from your address. Please try again later; your details are kept.",
  booked: "Your call is booked",
  bookedText: (when: string) =>
    `We look forward to talking with you on ${when}. An e-mail with a calendar invitation is on its way, with a link to cancel or change the time.`,
  bookAnother: "Back to the site",
  /** The links to /book beside SPEC's texts: the contact form, the About page and each article. */
  link: "Prefer to talk? Book a call",
  articleLink: "Want to talk it through? Book a call",
};

/** What the server answers a booking or a change it refuses (POST /api/booking, the forms). */
export const bookingErrors = {
  closed: "Calls are not being booked online right now.",
  notOffered: "That time is not offered. Please pick one of the free times.",
  taken: "Sorry, that time was just taken. Please pick another.",
  tooMany: (n: number) =>
    `This e-mail address already has ${n} calls booked. Please cancel one first, or send us a message.`,
  cancelled: "This call is cancelled; please book a new one.",
  tooManyChanges: "This call has been changed too often. Please write to us to move it.",
  throttled: "Too many bookings from your address. Please try again later.",
  pickTime: "Please pick a time for the call.",
  name: "Please enter your name.",
  nameTooLong: (n: number) => `Name is too long (${n} characters at most).`,
  email: "Please enter your email address.",
  emailInvalid: "Please enter a valid email address.",
  phoneTooLong: (n: number) => `Phone is too long (${n} characters at most).`,
  noteTooLong: (n: number) => `The note is too long (${n} characters at most).`,
};

export const managePage = {
  title: "Your call",
  heading: "Your booked call",
  when: (when: string) => `Your call is on ${when}.`,
  cancelledHeading: "This call is cancelled",
  cancelledText: "The time is free again. You are welcome to book another.",
  bookAgain: "Book another call",
  cancel: "Cancel the call",
  cancelling: "Cancelling...",
  cancelConfirm: "Yes, cancel it",
  keep: "Keep it",
  cancelQuestion: "Cancel this call? We will let you know by e-mail that it is cancelled.",
  reschedule: "Pick another time",
  rescheduleLegend: "A new time",
  rescheduleSubmit: "Move the call",
  moving: "Moving...",
  moved: (when: string) => `Your call is moved to ${when}. An updated invitation is on its way.`,
  notFoundHeading: "This link does not work",
  notFound: "This link is not valid. It may be mistyped, or the call was booked again with a new link.",
  past: "This call has already taken place.",
};
