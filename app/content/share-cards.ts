/**
 * What the site's own share cards say (ADR 073): the picture a shared link
 * of a page without a header image shows. Each card has a small label, a
 * title, the company's name and the site's host; the owner's words (the
 * About tagline, a post's title, a category's name) come from the content.
 */
import { about } from "./about";
import { hero, insights } from "./landing";

export const shareCardText = {
  landing: { label: hero.eyebrow, title: hero.headline },
  about: { label: about.title, title: (tagline: string) => tagline },
  blog: { label: "Blog", title: insights.intro },
  category: { label: "Blog", title: (name: string) => name },
  /** An article without a header image: its category, else "Blog". */
  article: { label: (category: string) => category || "Blog", title: (title: string) => title },
  privacy: { label: "Privacy", title: (heading: string) => heading },
};
