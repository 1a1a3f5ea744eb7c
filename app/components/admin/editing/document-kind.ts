/**
 * What the shared editor parts need to know about a kind of document (ADR 065):
 * how to list, read, compare and restore its revisions, where its share links
 * are, and its words. A post, a page (and whatever the owner edits next) each
 * give one; the panels stay the same.
 */
import type { FormRevisionTexts, LiveRevisionTexts } from "~/content/revisions";
import type { ShareLinkTexts } from "~/content/share-links";

/** A kept revision in the list, whatever the kind calls its fields. */
export interface RevisionItem {
  id: string;
  number: number;
  /** When it was kept; null for a document's original copy, which nobody made. */
  at: string | null;
  by: string | null;
}

/** One field that differs between what is there now (the form, or the live page) and a revision. */
export interface FieldChange {
  name: string;
  now: string;
  then: string;
  /** A short value (a choice, a date, yes or no): shown as before and after, not word by word. */
  short?: boolean;
}

interface RevisionsBase<R> {
  /** The list is read again whenever this changes (a page's published version). */
  listKey: string | number;
  list: (signal: AbortSignal) => Promise<RevisionItem[]>;
  load: (id: string, signal: AbortSignal) => Promise<R>;
  /** How a revision differs from what is there now. */
  changes: (revision: R) => FieldChange[];
}

/**
 * Restoring into the form: the list loads when asked for; a version is chosen,
 * compared with the form and put in it, and only Save keeps it.
 */
export interface FormRevisions<R> extends RevisionsBase<R> {
  restoreInto: "form";
  texts: FormRevisionTexts;
  apply: (revision: R) => void;
}

/**
 * Restoring by publishing again: every version is listed (as the screen loaded
 * them) beside the live one; Restore asks first, then publishes it.
 */
export interface LiveRevisions<R> extends RevisionsBase<R> {
  restoreInto: "live";
  texts: LiveRevisionTexts;
  initial: RevisionItem[];
  isCurrent: (item: RevisionItem) => boolean;
  /** Asks (the screen's dialog), then publishes the revision again. */
  restore: (item: RevisionItem) => void;
}

export type Revisions<R> = FormRevisions<R> | LiveRevisions<R>;

/** A document's share links (ADR 044): their API, or undefined while there is nothing to share yet. */
export interface ShareLinksOf {
  url: string | undefined;
  texts: ShareLinkTexts;
  /** Keeps the draft first, so the link shows what the form shows. */
  beforeCreate?: () => Promise<void>;
}

/** A kind of document as the shared editor parts see it. */
export interface DocumentKind<R> {
  revisions: Revisions<R>;
  shareLinks: ShareLinksOf;
}

/** The server's own words for a failed call, from either editor's API client. */
export function detailOf(error: unknown): string {
  const detail = (error as { detail?: unknown } | null)?.detail;
  return typeof detail === "string" ? detail : "the server could not be reached";
}
