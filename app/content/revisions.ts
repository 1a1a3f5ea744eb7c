/**
 * The editor's texts for autosave, edit conflicts and revisions (issue 18,
 * ADR 043). None of the labels or button names holds a word of the specified editor's
 * fields or buttons (Title, Slug, Excerpt, Content, Category, Read time,
 * Header image, Publish, Published, Save, Edit, Delete, Preview): outside
 * tests find those by substring, case-insensitively ("unsaved" holds "save",
 * so no button here says it).
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

export const historyText = {
  heading: "History",
  intro: (limit: number) => `Every save keeps a copy; the newest ${limit} are kept.`,
  show: "Show history",
  hide: "Hide history",
  loading: "Loading history...",
  empty: "No earlier versions yet.",
  failed: (detail: string) => `The history could not be loaded: ${detail}.`,
  item: (number: number, at: string) => `Version ${number}, ${shortTime(at)}`,
  savedBy: (by: string) => `by ${by}`,
  compareHeading: (number: number) => `Version ${number} compared with the form`,
  loadingOne: "Loading this version...",
  same: "Same as the form.",
  onlyInVersion: (number: number) => `only in version ${number}`,
  onlyInForm: "only in the form now",
  legendVersion: (number: number) => [`underlined`, `: only in version ${number}`] as const,
  legendForm: ["struck through", ": only in the form now"] as const,
  restore: "Restore this version",
  restored: (number: number) =>
    `Version ${number} is in the form now. Nothing changes for visitors until you press Save, which keeps it as a new version.`,
  close: "Close comparison",
  fieldNames: {
    title: "Headline",
    excerpt: "Summary",
    content: "Body",
    other: "Other fields",
  },
};
