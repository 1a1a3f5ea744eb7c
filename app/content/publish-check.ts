/**
 * The editor's texts for the check before publishing (ADR 057). Button names
 * hold none of the editor's specified words but the one the brief asks for,
 * "Publish anyway", shown only while the question is open (see revisions.ts
 * on why: outside tests find the editor's buttons by substring).
 */
import { type PublishProblem, MAX_CHECKED_REFERENCES } from "~/lib/publish-check";

/** A long address shortened in the middle: an upload's is 90 characters. */
function shortUrl(url: string): string {
  return url.length > 48 ? `${url.slice(0, 24)}…${url.slice(-16)}` : url;
}

const day = (iso: string) =>
  new Date(iso).toLocaleString("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });

/** What is wrong, in a line; the item's button also names the line of the text it is on. */
export function problemText(problem: PublishProblem): string {
  switch (problem.kind) {
    case "image-without-alt":
      return `Image without alt text (${shortUrl(problem.url || "a reference")}): describe it between the brackets, or add <!-- decorative --> right after it if it only decorates`;
    case "unknown-post":
      return `Link to /blog/${problem.slug}: there is no such post`;
    case "draft-post":
      return `Link to /blog/${problem.slug}: that post is a draft`;
    case "later-post":
      return `Link to /blog/${problem.slug}: that post goes live later, on ${day(problem.publishDate)}`;
    case "missing-image":
      return `${shortUrl(problem.url)}: this uploaded image no longer exists`;
  }
}

export const publishCheckText = {
  title: "Before it goes live",
  intro: (count: number) =>
    `${count === 1 ? "One thing" : `${count} things`} in the text may not work for readers. Choose one to go to it; you can come back to this list under the text.`,
  more: `Only the first ${MAX_CHECKED_REFERENCES} links and images were checked.`,
  line: (line: number) => `Line ${line}`,
  anyway: "Publish anyway",
  back: "Back to the text",
  listHeading: "Found before going live",
  listHint: "Choose one to go to it in the text. Pressing Save checks again.",
  gone: "changed since the check",
};
