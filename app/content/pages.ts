/**
 * The Pages screen's texts and the labels of every field of the editable
 * documents (ADR 053). The editor builds its form from the zod schema in
 * app/lib/site-content.ts and names each field by its key here; a key not
 * listed shows as its own name, which a test catches.
 */
import type { ContentName } from "~/lib/site-content";

export const PAGE_TITLES: Record<ContentName, string> = {
  landing: "Landing page",
  about: "About page",
  contact: "Contact form sentences",
  privacy: "Privacy page",
};

export const PAGE_DESCRIPTIONS: Record<ContentName, string> = {
  landing: "The three service sections of the landing page: packages and prices, add-ons, platforms and projects.",
  about: "The About page: mission, services, values, team, story and the call to action.",
  contact: "The sentences the contact form's message starts with, one picked at random.",
  privacy:
    "The privacy page: what the site keeps about visitors and for how long, then who you are, their rights and cookies.",
};

/** Field labels by key; list items are named by `ITEM_LABELS` and their number. */
export const FIELD_LABELS: Record<string, string> = {
  media: "For Media",
  systems: "For Systems",
  research: "For Research",
  intro: "Introduction",
  packagesHeading: "Packages heading",
  packages: "Packages",
  name: "Name",
  price: "Price",
  featured: "Highlight this package",
  features: "Features",
  addOnsHeading: "Add-ons heading",
  addOns: "Add-ons",
  note: "Note (optional)",
  aLaCarteHeading: "A la carte heading",
  aLaCarte: "A la carte items",
  cta: "Call to action",
  claim: "Highlighted claim",
  platforms: "Platforms",
  summary: "Summary",
  projects: "Research projects",
  tagline: "Tagline",
  mission: "Mission",
  heading: "Heading",
  paragraphs: "Paragraphs",
  solutions: "Services",
  items: "Items",
  values: "Values",
  body: "Text",
  team: "Team",
  members: "Team members",
  role: "Role",
  bio: "Short bio",
  photo: "Photo",
  url: "Image",
  alt: "Photo description (alt text)",
  story: "Story",
  button: "Button",
  messages: "Sentences",
  keeps: "What the site keeps",
  sections: "Sections",
};

/** What one item of a list is called ("Package 2"), by the list's key. */
export const ITEM_LABELS: Record<string, string> = {
  packages: "Package",
  features: "Feature",
  addOns: "Add-on",
  aLaCarte: "Item",
  platforms: "Platform",
  projects: "Project",
  paragraphs: "Paragraph",
  items: "Item",
  members: "Team member",
  messages: "Sentence",
  sections: "Section",
};

export const pagesText = {
  screenTitle: "Pages",
  screenIntro:
    "Change the words and prices of the site's pages. Edits are kept as a draft that only administrators see until you publish them.",
  edit: (title: string) => `Edit ${title}`,
  publishedAt: (at: string, by: string | null) => `Published ${at}${by ? ` by ${by}` : ""}`,
  original: "Original copy, never changed",
  hasDraft: "Draft waiting",
  back: "All pages",
  preview: "Preview",
  publish: "Publish",
  publishing: "Publishing...",
  discard: "Discard draft",
  discardConfirm: "Throw away the draft and go back to the published page? This cannot be undone.",
  copy: "Copy",
  copied: "Copied",
  add: (item: string) => `Add ${item.toLowerCase()}`,
  remove: (item: string) => `Remove ${item}`,
  moveUp: (item: string) => `Move ${item} up`,
  moveDown: (item: string) => `Move ${item} down`,
  resetSection: "Reset this section to the original copy",
  resetConfirm: (section: string) =>
    `Put back the original copy of "${section}"? Your other sections stay as they are.`,
  count: (length: number, max: number) => `${length} / ${max}`,
  uploadPhoto: "Upload a photo",
  replacePhoto: "Replace photo",
  removePhoto: "Remove photo",
  uploading: "Uploading...",
  noPhoto: "No photo",
  status: {
    published: "Everything is published",
    editing: "Editing...",
    saving: "Saving draft...",
    saved: (at: string) => `Draft saved ${at}: visitors do not see it yet`,
    invalid: "Fix the marked fields to keep the draft",
    conflict:
      "This page was changed in another tab or by another administrator. Reload the page to see their version; your last changes here are not saved.",
    failed: (detail: string) => `The draft could not be saved (${detail}).`,
  },
  publishedNotice: "Published: visitors see the new version now.",
  publishInvalid: "Fix the marked fields before publishing.",
  draftStale: "This draft was started from an older published version; publishing it replaces the newer one.",
  previewBanner: "Preview of the draft: visitors do not see these changes until they are published.",
  previewPublished: "Preview: there is no draft, this is the published page.",
};
