/**
 * What the site says while its database cannot be reached (ADR 075): on a
 * page, and as the `error` of an API answer, which the admin shows beside
 * the form it came from (what was typed stays in it).
 */
export const unavailableText = {
  title: "Briefly unavailable",
  message: "The site is briefly unavailable. Please try again in a moment.",
  apiError: "The site is briefly unavailable: nothing you typed is lost. Try again in a moment.",
};
