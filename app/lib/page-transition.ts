/**
 * Moves between public pages are ordinary page loads (ADR 018). Links and
 * forms say, in data attributes, what the visitor should see while the next
 * page loads and where focus goes when it arrives; the page-status island
 * (components/site/page-status.tsx) acts on them. Without JavaScript they are
 * plain links and forms.
 */

/** Where focus goes on the next page: its article title, or the card of an article in a list. */
export type FocusAfter = "article" | `card:${string}`;

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
