import { createHash } from "node:crypto";

/**
 * What a share card shows, and the key that names it (ADR 073). The key is
 * a hash of the page's path, the subject and the renderer's version: a
 * card's bytes never change, so its URL is cached for ever; a changed title
 * (or company name, or header image) names a new card; two pages never
 * share one, so each page's newest card is kept while older ones are
 * pruned. Bump RENDERER_VERSION when the drawing changes.
 */

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;
const RENDERER_VERSION = 2;

/** The site's own card, or a crop of an uploaded header image ("/images/{id}-{width}.webp"). */
export type ShareCardSubject =
  { kind: "text"; label: string; title: string; site: string; host: string } | { kind: "photo"; image: string };

/** Built field by field, so that equal subjects hash alike whatever object they came from. */
export function textSubject(fields: { label: string; title: string; site: string; host: string }): ShareCardSubject {
  return { kind: "text", label: fields.label, title: fields.title, site: fields.site, host: fields.host };
}

export function photoSubject(image: string): ShareCardSubject {
  return { kind: "photo", image };
}

export function shareCardKey(page: string, subject: ShareCardSubject): string {
  return createHash("sha256")
    .update(JSON.stringify([RENDERER_VERSION, page, subject]))
    .digest("hex")
    .slice(0, 32);
}

const CARD_FILE = /^([0-9a-f]{32})\.jpg$/;

export const shareCardPath = (key: string) => `/images/cards/${key}.jpg`;

/** The key in a card's file name, or undefined for anything else. */
export function parseShareCardFile(file: string): string | undefined {
  return CARD_FILE.exec(file)?.[1];
}
