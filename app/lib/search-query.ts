/**
 * The blog search's query rules (ADR 042), shared by the page, its cache key
 * and the server's search: how long a query may be, how it is normalised
 * (the page shows and caches that form, so spellings that differ only in
 * case or spacing share one answer), and the words it is split into.
 */

/** The longest `q` searched, in UTF-16 code units; longer gets a message, not a search. */
export const MAX_QUERY_CHARS = 200;
/** Words searched: the first this many of a query's distinct words. */
const MAX_TERMS = 10;
/** The last word matches as a prefix when it has at least this many characters. */
const MIN_PREFIX_CHARS = 3;
/** Results per page. */
export const SEARCH_PAGE_SIZE = 10;
/** Pages of results: the matches are counted up to MAX_SEARCH_PAGE × SEARCH_PAGE_SIZE ("500+"). */
const MAX_SEARCH_PAGE = 50;
export const MAX_COUNTED_RESULTS = MAX_SEARCH_PAGE * SEARCH_PAGE_SIZE;

export type SearchQuery =
  /** No `q`, or only spaces: the form alone. */
  | { kind: "empty" }
  /** Longer than MAX_QUERY_CHARS. */
  | { kind: "too-long" }
  /**
   * `text` is the normalised query (shown back in the form); `terms` its
   * words, lowercased, at most MAX_TERMS, possibly none (only punctuation).
   */
  | { kind: "words"; text: string; terms: string[]; prefix: boolean };

/** Control characters (NUL among them) become spaces; whitespace runs become one space; case is folded. */
export function normaliseQuery(raw: string): string {
  return raw
    .replace(/\p{Cc}/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

/** Letters, digits and combining marks: a word, as the databases' tokenizers split text. */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

export function parseSearchQuery(raw: string | null): SearchQuery {
  if (raw === null) return { kind: "empty" };
  // Bounded before any pattern runs over it.
  if (raw.length > MAX_QUERY_CHARS) return { kind: "too-long" };
  const text = normaliseQuery(raw);
  if (text === "") return { kind: "empty" };
  const terms = [...new Set(text.match(WORD) ?? [])].slice(0, MAX_TERMS);
  const last = terms[terms.length - 1];
  return { kind: "words", text, terms, prefix: last !== undefined && [...last].length >= MIN_PREFIX_CHARS };
}

/** The results page a `?page=` value asks for (absent means 1), or undefined (404): 1 to MAX_SEARCH_PAGE. */
export function parseSearchPage(value: string | null): number | undefined {
  const page = value ?? "1";
  if (!/^\d{1,3}$/.test(page)) return undefined;
  const n = Number(page);
  return n >= 1 && n <= MAX_SEARCH_PAGE ? n : undefined;
}

/** The address of a results page of a normalised query. */
export function searchHref(text: string, page = 1): string {
  return `/blog/search?q=${encodeURIComponent(text)}${page > 1 ? `&page=${page}` : ""}`;
}

/** A piece of shown text, highlighted or not. */
export interface Segment {
  text: string;
  mark: boolean;
}

/** Case and diacritics folded, as SQLite's unicode61 tokenizer compares words. */
const fold = (word: string) => word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/**
 * `text` split into pieces, the words that match a term marked: equal to a
 * term, or starting with the last one when `prefix`. Text only: the page
 * renders marked pieces in <mark> and escapes everything, so nothing stored
 * in a post can add markup.
 */
export function markTerms(text: string, terms: readonly string[], prefix: boolean): Segment[] {
  const folded = terms.map(fold);
  const last = prefix ? folded[folded.length - 1] : undefined;
  const matches = (word: string) => {
    const f = fold(word);
    return folded.includes(f) || (last !== undefined && f.startsWith(last));
  };
  const segments: Segment[] = [];
  const push = (piece: string, mark: boolean) => {
    if (piece === "") return;
    const previous = segments[segments.length - 1];
    if (previous && previous.mark === mark) previous.text += piece;
    else segments.push({ text: piece, mark });
  };
  let at = 0;
  for (const match of text.matchAll(WORD)) {
    push(text.slice(at, match.index), false);
    push(match[0], matches(match[0]));
    at = match.index + match[0].length;
  }
  push(text.slice(at), false);
  return segments;
}
