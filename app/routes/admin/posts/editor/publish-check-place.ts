/**
 * Where an item of the check before publishing (ADR 057) is in the text now.
 * The check answered offsets into the text it was sent; the writer may have
 * typed since, so each item keeps the text it spans and is found again: at
 * its place if unchanged, else at the copy nearest to it.
 */
import type { PublishProblem } from "~/lib/publish-check";

/** A problem and the text it spans when it was found. */
export interface CheckItem {
  problem: PublishProblem;
  snippet: string;
}

export const checkItems = (content: string, problems: PublishProblem[]): CheckItem[] =>
  problems.map((problem) => ({ problem, snippet: content.slice(problem.start, problem.end) }));

/** The span of `snippet` in `text` nearest to `near`; undefined when it is no longer there. */
export function placeNow(text: string, snippet: string, near: number): { start: number; end: number } | undefined {
  if (snippet === "") return undefined;
  if (text.startsWith(snippet, near)) return { start: near, end: near + snippet.length };
  let best: number | undefined;
  for (let at = text.indexOf(snippet); at !== -1; at = text.indexOf(snippet, at + 1)) {
    if (best === undefined || Math.abs(at - near) < Math.abs(best - near)) best = at;
    if (at > near) break;
  }
  return best === undefined ? undefined : { start: best, end: best + snippet.length };
}

/** The 1-based line of `offset` in `text`. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf("\n"); at !== -1 && at < offset; at = text.indexOf("\n", at + 1)) line++;
  return line;
}

/** Selects a span of a textarea and brings it into view (a textarea scrolls to its selection when focused). */
export function selectInTextarea(textarea: HTMLTextAreaElement, item: CheckItem): void {
  const place = placeNow(textarea.value, item.snippet, item.problem.start);
  textarea.blur();
  if (place) textarea.setSelectionRange(place.start, place.end);
  textarea.focus();
  textarea.scrollIntoView({ block: "center" });
}
