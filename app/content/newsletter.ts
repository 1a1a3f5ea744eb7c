/**
 * The newsletter (ADR 072): the words of the /newsletter page, of the pages
 * the confirmation and unsubscribe links open, and of the confirmation
 * e-mail. The sign-up form's own words (beside articles, on /blog and in
 * the footer) are in newsletter-form.ts, apart, since the footer's island
 * carries them to every public page and this file's would ride along. The
 * post e-mail's words are in newsletter-mail.ts, the Subscribers screen's
 * in subscribers-admin.ts.
 */

export const newsletterPage = {
  title: "Newsletter",
  description: "Get the company's new posts by e-mail. No tracking; unsubscribe with one click.",
  heading: "Newsletter",
  intro:
    "Leave your e-mail address and we will send you our new posts as they come out. We will first send a link to confirm it is yours.",
  accepted: "Almost done: check your inbox",
  acceptedText:
    "If this address is not subscribed yet, an e-mail with a confirmation link is on its way. The link works for 7 days.",
  back: "Back to the blog",
};

/** What the server answers a sign-up it refuses (POST /api/subscribe, the forms). */
export const subscribeErrors = {
  email: "Please enter a valid email address.",
  throttled: "Too many sign-ups from your address. Please try again later.",
  /** The 202's message: the same for every address, so nothing tells who is subscribed. */
  accepted: "Check your inbox: if this address is not subscribed yet, a confirmation link is on its way.",
};

export const confirmPage = {
  title: "Confirm your subscription",
  heading: "Confirm your subscription",
  text: (site: string) => `Press the button to start getting ${site}'s new posts by e-mail.`,
  button: "Confirm my subscription",
  done: "You are subscribed",
  doneText: (site: string) => `Thank you. ${site}'s next post will come to your inbox.`,
  already: "You are already subscribed. Nothing more to do.",
  expired: "This link has expired",
  expiredText: "Confirmation links work for 7 days. Please sign up again and use the new link.",
  unsubscribedHeading: "This address was unsubscribed",
  unsubscribed: "Please sign up again if you would like the newsletter.",
  notFound: "This link does not work",
  notFoundText: "It may be mistyped, or the subscription may have been removed. Please sign up again.",
  signUp: "Sign up",
};

export const unsubscribePage = {
  title: "Unsubscribe",
  heading: "Unsubscribe from the newsletter",
  text: (email: string) => `Press the button and ${email} gets no more e-mails from this newsletter.`,
  button: "Unsubscribe",
  done: "You are unsubscribed",
  doneText: "You will get no more e-mails from this newsletter. Changed your mind? You can sign up again any time.",
  notFound: "This link does not work",
  notFoundText: "It may be mistyped, or the subscription may have been removed already.",
};

export const confirmMail = {
  subject: (site: string) => `Confirm your subscription to ${site}`,
  text: (site: string, url: string) =>
    [
      "Hello,",
      "",
      `Someone, probably you, asked to get ${site}'s new posts by e-mail. To confirm, open this link and press the button:`,
      "",
      url,
      "",
      "The link works for 7 days. If it was not you, ignore this e-mail: without confirmation you will get nothing more.",
      "",
      site,
    ].join("\n"),
};
