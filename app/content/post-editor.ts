/**
 * The post editor's words for its newsletter option (issue 46), kept here
 * with the rest of the site's copy. The label holds none of the editor's
 * specified words (Title, Slug, Publish, Save, ...): outside tests find
 * those fields by substring (see revisions.ts).
 */
export const emailSubscribersText = {
  label: "E-mail this post to subscribers",
  hint: "Sent once, when the post becomes public (at its scheduled time too), to everyone subscribed then.",
};
