/**
 * "N min read" from a post's markdown, for the editor's one-click fill (the
 * field stays free text, docs/product/contract.md#posts). Prose at about 230
 * words a minute; code is read more slowly, so its words count double; each
 * image adds 12 seconds of looking. Link and image addresses are not words.
 * One pass over the lines and patterns that cannot backtrack: the editor
 * runs it on every change of a text of up to 50,000 characters.
 */
const WORDS_PER_MINUTE = 230;
const SECONDS_PER_IMAGE = 12;

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;
/** A link's or image's address: from "](" to the closing parenthesis or a space. */
const ADDRESS = /\]\([^)\s]*\)?/g;
const IMAGE_START = /!\[/g;

const countWords = (text: string) => text.match(WORD)?.length ?? 0;

/** The fence a line opens or closes (three or more backticks or tildes), if any. */
function fenceOf(line: string): string | undefined {
  const trimmed = line.trimStart();
  const mark = trimmed[0];
  if (mark !== "`" && mark !== "~") return undefined;
  let length = 0;
  while (trimmed[length] === mark) length++;
  return length >= 3 ? mark.repeat(length) : undefined;
}

export function readingMinutes(markdown: string): number {
  let codeWords = 0;
  let proseWords = 0;
  let images = 0;
  let fence: string | undefined;
  for (const line of markdown.split("\n")) {
    const mark = fenceOf(line);
    if (fence !== undefined) {
      if (mark !== undefined && mark.startsWith(fence) && line.trim() === mark) fence = undefined;
      else codeWords += countWords(line);
    } else if (mark !== undefined) {
      fence = mark;
    } else {
      images += line.match(IMAGE_START)?.length ?? 0;
      proseWords += countWords(line.replace(ADDRESS, "]"));
    }
  }
  const minutes = (proseWords + 2 * codeWords) / WORDS_PER_MINUTE + (images * SECONDS_PER_IMAGE) / 60;
  return Math.max(1, Math.round(minutes));
}

export const readTimeText = (minutes: number) => `${minutes} min read`;
