/** Booking's e-mails and calendar invitations (ADR 071): subjects, texts, the event's summary. Server-only words. */

export const bookingMail = {
  inviteSubject: (company: string, when: string) => `Your call with ${company}: ${when}`,
  updateSubject: (company: string, when: string) => `Your call with ${company} is moved: ${when}`,
  cancelSubject: (company: string, when: string) => `Cancelled: your call with ${company} on ${when}`,
  reminderSubject: (company: string, when: string) => `Reminder: your call with ${company} tomorrow, ${when}`,
  ownerSubject: (name: string, when: string) => `New call booked by ${name}: ${when}`,
  ownerUpdateSubject: (name: string, when: string) => `Call with ${name} moved: ${when}`,
  ownerCancelSubject: (name: string, when: string) => `Call with ${name} cancelled: ${when}`,
  ownerReminderSubject: (name: string, when: string) => `Reminder: call with ${name} tomorrow, ${when}`,
  eventSummary: (company: string) => `Call with ${company}`,
  ownerEventSummary: (name: string) => `Call with ${name}`,
  visitorText: (name: string, company: string, when: string, manageUrl: string) =>
    [
      `Hello ${name},`,
      "",
      `Your call with ${company} is booked for ${when}. The invitation is attached for your calendar.`,
      "",
      `To cancel or change the time: ${manageUrl}`,
      "",
      company,
    ].join("\n"),
  visitorUpdateText: (name: string, company: string, when: string, manageUrl: string) =>
    [
      `Hello ${name},`,
      "",
      `Your call with ${company} is moved to ${when}. The updated invitation is attached.`,
      "",
      `To cancel or change the time: ${manageUrl}`,
      "",
      company,
    ].join("\n"),
  visitorCancelText: (name: string, company: string, when: string, bookUrl: string) =>
    [
      `Hello ${name},`,
      "",
      `Your call with ${company} on ${when} is cancelled.`,
      "",
      `To book another time: ${bookUrl}`,
      "",
      company,
    ].join("\n"),
  visitorReminderText: (name: string, company: string, when: string, manageUrl: string) =>
    [
      `Hello ${name},`,
      "",
      `A reminder of your call with ${company} on ${when}.`,
      "",
      `If the time no longer suits you, you can cancel or change it here: ${manageUrl}`,
      "",
      company,
    ].join("\n"),
  ownerText: (
    heading: string,
    booking: { name: string; email: string; phone: string | null; message: string },
    when: string,
    leadUrl: string,
  ) =>
    [
      heading,
      "",
      `When: ${when}`,
      `Name: ${booking.name}`,
      `Email: ${booking.email}`,
      `Phone: ${booking.phone ?? "-"}`,
      "",
      booking.message || "(no note)",
      "",
      `In the inbox: ${leadUrl}`,
    ].join("\n"),
  ownerHeadings: {
    invite: "A call was booked on the website.",
    update: "A booked call was moved to a new time.",
    cancel: "A booked call was cancelled.",
    reminder: "A reminder: this call is tomorrow.",
  },
  /** The lead's text in the inbox when the visitor wrote no note. */
  leadWithoutNote: "(Booked a call; no note.)",
};
