/**
 * The words around a post when the newsletter mails it (issue 46): the
 * byline, the link to the article, why the reader gets it and how to stop.
 * The HTML and the plain-text part say the same; the mail's code
 * (app/server/newsletter/post-mail.server.ts) escapes every value it puts in.
 * Server-only words.
 */
export const newsletterMail = {
  /** Under the title: "November 20, 2026 · By Ada". */
  byline: (date: string, author: string) => `${date} · By ${author}`,
  /** The button under the body, to the article on the site. */
  readOnSite: (siteName: string) => `Read it on ${siteName}`,
  /** The footer's reason, beside the unsubscribe link. */
  why: (siteName: string) => `You get this because you subscribed to ${siteName}'s newsletter.`,
  unsubscribe: "Unsubscribe",
  /** The plain-text part spells the links out. */
  readOnSiteText: (siteName: string, url: string) => `Read it on ${siteName}: ${url}`,
  unsubscribeText: (url: string) => `Unsubscribe: ${url}`,
};
