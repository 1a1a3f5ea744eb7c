/**
 * The privacy page's fixed words and the one name of the link to it (issue
 * 47). The page's own text is the owner's `privacy` document (Admin > Pages,
 * its original copy in site-content-defaults.ts); these are the interface
 * around it. A file of its own, small: the footer's island (the sign-up
 * form) and the contact modal carry the link's words to every public page.
 */

/** The link beside the contact, booking and newsletter forms. The footer's "Privacy" still opens the contact modal. */
export const privacyLink = "How we handle your details";

export const privacyPage = {
  /** The page's description for search engines and link previews. */
  description: (company: string) =>
    `What ${company} keeps about visitors to this website, for how long, and how to see or delete it.`,
  lastUpdated: "Last updated",
};
