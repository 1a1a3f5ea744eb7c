/**
 * The check before publishing (ADR 057), as the server answers it and the
 * editor shows it: what is wrong, and where in the markdown (UTF-16 offsets,
 * as a textarea's selection counts them).
 */

/** Links and images read per check: a 50,000-character body could hold about 10,000. */
export const MAX_CHECKED_REFERENCES = 200;

export type PublishProblem =
  /** An image whose alt text is empty and not marked decorative. */
  | { kind: "image-without-alt"; start: number; end: number; url: string }
  /** A link to /blog/{slug} where no post (nor a redirect) answers. */
  | { kind: "unknown-post"; start: number; end: number; url: string; slug: string }
  /** A link to a post that is a draft. */
  | { kind: "draft-post"; start: number; end: number; url: string; slug: string }
  /** A link to a post that goes live after this one (`publishDate`). */
  | { kind: "later-post"; start: number; end: number; url: string; slug: string; publishDate: string }
  /** A link or image to /images/... that names no stored upload. */
  | { kind: "missing-image"; start: number; end: number; url: string };

export interface PublishCheck {
  problems: PublishProblem[];
  /** The body has more links and images than were checked (MAX_CHECKED_REFERENCES). */
  more: boolean;
}
