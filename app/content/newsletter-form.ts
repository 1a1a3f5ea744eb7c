/**
 * The newsletter's sign-up form (ADR 072), at the end of each article, on
 * /blog and in the footer. A file of its own: the footer's island brings
 * these words to every public page's first load, without the rest of
 * newsletter.ts (the pages' and the e-mail's words).
 */
export const subscribeForm = {
  heading: "Get new posts by e-mail",
  intro: "An occasional e-mail when we publish something new. No tracking; unsubscribe with one click.",
  label: "Email",
  submit: "Subscribe",
};
