import { MAX_REVISIONS } from "~/lib/revisions";

/**
 * The editors' texts for autosave, edit conflicts and revisions (issue 18,
 * ADR 043). None of the labels or button names holds a word of the specified editor's
 * fields or buttons (Title, Slug, Excerpt, Content, Category, Read time,
 * Header image, Publish, Published, Save, Edit, Delete, Preview): outside
 * tests find those by substring, case-insensitively ("unsaved" holds "save",
 * so no button here says it). The post editor's bar, at the end, holds those
 * very buttons.
 */

/** "14:02" today, "24 Nov, 14:02" another day, in the browser's time zone. */
export function shortTime(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const time = date.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" });
  if (date.toDateString() === now.toDateString()) return time;
  return `${date.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: date.getFullYear() === now.getFullYear() ? undefined : "numeric" })}, ${time}`;
}

export const autosaveText = {
  local: "Changes kept on this device",
  sending: "Keeping a draft on the server...",
  server: (at: string) => `Draft saved ${shortTime(at)}: kept on the server and on this device`,
  offline: "Offline: changes kept on this device",
  stale: (at: string) =>
    `Not kept on the server: this post was changed in another tab or by another administrator at ${shortTime(at)}. Your changes are kept on this device.`,
  failed: (detail: string) => `The draft could not be kept on the server (${detail}); it is kept on this device.`,
};

export const restoreText = {
  offer: (at: string, where: "device" | "server", earlier: boolean) =>
    `You have unsaved changes from ${shortTime(at)}, kept ${where === "device" ? "on this device" : "on the server"}, ${
      earlier
        ? "made from an earlier version: the post was saved since. Restored, Save asks before replacing that version."
        : "newer than the stored post."
    }`,
  restore: "Restore newer changes",
  discard: "Discard them",
  restored: "Your unsaved changes are back in the form. They are not live until you press Save.",
};

export const conflictText = (at: string) =>
  `This post was changed in another tab or by another administrator at ${shortTime(at)}. Your text is kept here: reload the list and open the post to see theirs, or press Save again to replace it with yours.`;

/**
 * The History panel's words (ADR 065): one set for each kind of document.
 * What every kind says; the two ways of restoring add their own below.
 */
interface RevisionTextsBase {
  heading: string;
  intro: string;
  failed: (detail: string) => string;
  /** Who kept a version. */
  by: (who: string) => string;
  loadingOne: string;
  same: string;
  /** What screen readers hear around an insertion and a deletion. */
  onlyInVersion: (number: number) => string;
  onlyNow: string;
  /** Above a comparison: how the changes are marked, in one sentence or as a legend of two samples. */
  legend: string | { version: (number: number) => readonly [string, string]; now: readonly [string, string] };
  /** Short fields (a choice, a date, yes or no) shown as before and after, under this name. */
  otherFields: string;
  restore: string;
  restored: (number: number) => string;
}

/** A version restored into the form: the list loads when shown; one is chosen, compared, restored. */
export interface FormRevisionTexts extends RevisionTextsBase {
  show: string;
  hide: string;
  loading: string;
  empty: string;
  /** The name of the button that chooses a version. */
  item: (number: number, at: string) => string;
  compareHeading: (number: number) => string;
}

/** A version published again: every version listed with its changes and Restore, which asks first. */
export interface LiveRevisionTexts extends RevisionTextsBase {
  version: (number: number) => string;
  current: string;
  showChanges: string;
  hideChanges: string;
  restoreConfirm: (number: number) => string;
}

/** A post's History (ADR 043): every save keeps a version; restoring puts it in the form. */
export const postRevisionTexts: FormRevisionTexts = {
  heading: "History",
  intro: `Every save keeps a copy; the newest ${MAX_REVISIONS} are kept.`,
  show: "Show history",
  hide: "Hide history",
  loading: "Loading history...",
  empty: "No earlier versions yet.",
  failed: (detail: string) => `The history could not be loaded: ${detail}.`,
  item: (number: number, at: string) => `Version ${number}, ${shortTime(at)}`,
  by: (who: string) => `by ${who}`,
  compareHeading: (number: number) => `Version ${number} compared with the form`,
  loadingOne: "Loading this version...",
  same: "Same as the form.",
  onlyInVersion: (number: number) => `only in version ${number}`,
  onlyNow: "only in the form now",
  legend: {
    version: (number: number) => [`underlined`, `: only in version ${number}`] as const,
    now: ["struck through", ": only in the form now"] as const,
  },
  otherFields: "Other fields",
  restore: "Restore this version",
  restored: (number: number) =>
    `Version ${number} is in the form now. Nothing changes for visitors until you press Save, which keeps it as a new version.`,
};

/** The names of a post's fields in its History's comparison. */
export const postFieldNames = {
  title: "Headline",
  excerpt: "Summary",
  content: "Body",
  category: "Group",
  readTime: "Reading length",
  headerImage: "Image",
  headerImageAlt: "Image description",
  metaTitle: "Search result headline",
  metaDescription: "Search result description",
  noindex: "Hidden from search engines",
};

/** A short field's value in words, where it is not text. */
export const postValueWords = { yes: "yes", no: "no", empty: "(empty)" };

/** A page's History (ADR 053): every publish keeps a version; restoring publishes it again. */
export const pageRevisionTexts: LiveRevisionTexts = {
  heading: "History",
  intro: "Published versions",
  failed: (detail: string) => `The history could not be loaded: ${detail}.`,
  version: (number: number) => (number === 0 ? "Original copy" : `Version ${number}`),
  by: (who: string) => `by ${who}`,
  current: "current",
  showChanges: "Show changes",
  hideChanges: "Hide changes",
  loadingOne: "Loading this version...",
  same: "Same as the current version.",
  onlyInVersion: (number: number) => (number === 0 ? "only in the original copy" : `only in version ${number}`),
  onlyNow: "only in the current version",
  legend: "What restoring it changes: the current text is struck through, this version's text is underlined.",
  otherFields: "Other fields",
  restore: "Restore",
  restoreConfirm: (number: number) =>
    `Publish ${number === 0 ? "the original copy" : `version ${number}`} again? It replaces what visitors see now and any unpublished draft; the current version stays in the history.`,
  restored: (number: number) => `Version ${number} restored and published.`,
};

/** The post editor's bar (docs/product/interface.md#editor). */
export const postToolbarText = {
  heading: (saved: boolean) => (saved ? "Edit Post" : "New Post"),
  preview: "Preview",
  edit: "Edit",
  save: "Save",
  saving: "Saving...",
  shortcut: "Shortcut: Control or Command plus S",
  close: "Close",
  closeTitle: "Close without saving",
};
