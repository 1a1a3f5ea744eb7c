import { isWellFormedSlug } from "./slug";

/**
 * Moves between public pages are ordinary page loads (ADR 018). Links and
 * forms say, in data attributes, what the visitor should see while the next
 * page loads and where focus goes when it arrives; the page-status island
 * (components/site/page-status.tsx) acts on them. Without JavaScript they are
 * plain links and forms. Focus crosses the page load through a handover
 * (below), the only state the pages share.
 */

/** Where focus goes on the next page: its article title, or the card of an article in a list. */
export type FocusAfter = "article" | `card:${string}`;

/** The ids a FocusAfter names on the page it leads to (components/site/article-view.tsx, post-card.tsx). */
export const ARTICLE_TITLE_ID = "article-title";
export const postCardId = (slug: string) => `post-${slug}`;

/** The id of the element that holds the focus target: the article's title, or the article's card. */
export function focusTargetId(focus: FocusAfter): string {
  return focus === "article" ? ARTICLE_TITLE_ID : postCardId(focus.slice("card:".length));
}

/** A FocusAfter, or null for anything else (an attribute, or what storage gives back). */
export function parseFocusAfter(value: unknown): FocusAfter | null {
  if (value === "article") return value;
  if (typeof value === "string" && value.startsWith("card:") && isWellFormedSlug(value.slice("card:".length)))
    return value as FocusAfter;
  return null;
}

/**
 * The one thing a page tells the next across a page load: where focus goes,
 * and on which page (so a load that ends elsewhere, or a page opened later,
 * ignores it). Kept in sessionStorage under one key; written when a
 * transition starts, read and removed once by the page that arrives.
 */
interface FocusHandover {
  /** The address the transition loads: pathname and search. */
  to: string;
  focus: FocusAfter;
}

export const FOCUS_HANDOVER_KEY = "ojai:focus-after";

type HandoverStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

const addressOf = (url: URL) => `${url.pathname}${url.search}`;

/** Starts a transition to `to`: hands `focus` to that page, or clears an older handover. */
export function handOverFocus(storage: HandoverStorage, to: URL, focus: FocusAfter | null): void {
  if (!focus) {
    storage.removeItem(FOCUS_HANDOVER_KEY);
    return;
  }
  const handover: FocusHandover = { to: addressOf(to), focus };
  storage.setItem(FOCUS_HANDOVER_KEY, JSON.stringify(handover));
}

/** On arrival at `here`: the focus target handed to this page, if any; the handover is used up either way. */
export function takeFocusHandover(storage: HandoverStorage, here: URL): FocusAfter | null {
  const stored = storage.getItem(FOCUS_HANDOVER_KEY);
  if (stored === null) return null;
  storage.removeItem(FOCUS_HANDOVER_KEY);
  let handover: Partial<FocusHandover> | null;
  try {
    handover = JSON.parse(stored) as Partial<FocusHandover> | null;
  } catch {
    return null;
  }
  if (handover?.to !== addressOf(here)) return null;
  return parseFocusAfter(handover.focus);
}

export interface PageTransition {
  /** Shown in the page's status line while the next page loads. */
  loading: string;
  focus?: FocusAfter;
  /** A plain click goes here instead of the link's href (the in-place article). */
  href?: string;
}

export const TRANSITION_ATTRIBUTES = {
  href: "data-follow",
  loading: "data-loading",
  focus: "data-focus-after",
} as const;

/** The data attributes of a link or form that takes part in page transitions. */
export function followLink({ href, loading, focus }: PageTransition): Record<string, string> {
  const attributes: Record<string, string> = { [TRANSITION_ATTRIBUTES.loading]: loading };
  if (href) attributes[TRANSITION_ATTRIBUTES.href] = href;
  if (focus) attributes[TRANSITION_ATTRIBUTES.focus] = focus;
  return attributes;
}

/** A plain left click, which the page may handle itself; modified clicks open the link as usual. */
export function isPlainClick(event: MouseEvent): boolean {
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    !event.metaKey &&
    !event.ctrlKey &&
    !event.shiftKey &&
    !event.altKey
  );
}
