/**
 * URL scheme of uploaded images, shared by the server (which stores and serves
 * them) and PostImage (which builds srcset from a post's headerImage).
 *
 * An upload is stored once, keyed by the SHA-256 of its bytes, with WebP
 * variants at the widths below (never wider than the original). Its URL names
 * the widest variant: /images/{sha256}-{width}.webp. Because the key is the
 * content hash, a URL always means the same bytes and can be cached forever.
 */
const IMAGE_VARIANT_WIDTHS = [320, 640, 960, 1280, 1600] as const;
export const IMAGE_VARIANT_FORMAT = "webp";
export const IMAGE_VARIANT_CONTENT_TYPE = "image/webp";

/** Largest upload accepted (10 MB means 10 MiB, docs/product/contract.md#the-calls). */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** The content types the upload accepts (checked again by content on the server). */
export const ACCEPTED_IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif", "image/avif"] as const;

const VARIANT_PATH = /^\/images\/([0-9a-f]{64})-(\d{1,5})\.webp$/;

/**
 * Why the editor refuses a chosen file before uploading it, if it does: a
 * type the upload does not take, or more than MAX_IMAGE_BYTES. Cheap checks
 * only; the server judges the content itself.
 */
export function imageFileRefusal(file: { type: string; size: number }): string | undefined {
  if (file.type && !(ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type)) {
    return "choose a JPEG, PNG, WebP, GIF or AVIF image.";
  }
  if (file.size > MAX_IMAGE_BYTES) {
    return `the file is ${(file.size / 1024 / 1024).toFixed(1)} MB; at most 10 MB are accepted.`;
  }
  return undefined;
}

export function imageVariantPath(id: string, width: number): string {
  return `/images/${id}-${width}.${IMAGE_VARIANT_FORMAT}`;
}

/** The variant widths stored for an image this wide: the standard widths below it, and its own (capped). */
export function variantWidthsFor(sourceWidth: number): number[] {
  const largest = Math.min(sourceWidth, IMAGE_VARIANT_WIDTHS[IMAGE_VARIANT_WIDTHS.length - 1]!);
  const widths: number[] = IMAGE_VARIANT_WIDTHS.filter((w) => w < largest);
  widths.push(largest);
  return widths;
}

/** Parses "/images/{id}-{width}.webp" (or a file name "{id}-{width}.webp"). */
export function parseImageVariantPath(pathOrFile: string): { id: string; width: number } | undefined {
  const path = pathOrFile.startsWith("/") ? pathOrFile : `/images/${pathOrFile}`;
  const match = VARIANT_PATH.exec(path);
  if (!match) return undefined;
  const width = Number(match[2]);
  return width > 0 ? { id: match[1]!, width } : undefined;
}

/**
 * srcset for an uploaded image's URL (as the upload answered it), or
 * undefined for any other URL (an external image has no variants).
 */
export function imageSrcSet(src: string): string | undefined {
  const parsed = parseImageVariantPath(src);
  if (!parsed) return undefined;
  return variantWidthsFor(parsed.width)
    .map((width) => `${imageVariantPath(parsed.id, width)} ${width}w`)
    .join(", ");
}

/**
 * Any uploaded image's URL inside a text (a path, or an absolute URL with
 * this path): the id is the upload's SHA-256, the width any of its
 * variants'. Linear: fixed-length hex, then a bounded run of digits.
 */
const IMAGE_URL_IN_TEXT = /\/images\/([0-9a-f]{64})-\d{1,5}\.webp/g;

/**
 * The uploads a post uses (ADR 036): its header image and every
 * /images/{id}-{width}.webp URL in its markdown, each upload once, whichever
 * of its variants is named. An external URL names no upload. The text is
 * bounded by the post's limits (50,000 characters: at most about 600 URLs).
 */
export function imageIdsUsedBy(post: { headerImage: string | null; content: string }): string[] {
  return imageIdsIn([post.headerImage ?? "", post.content]);
}

/** The uploads the texts name (a page's documents as JSON too), each once. */
export function imageIdsIn(texts: readonly string[]): string[] {
  const ids = new Set<string>();
  for (const text of texts) {
    for (const match of text.matchAll(IMAGE_URL_IN_TEXT)) {
      ids.add(match[1]!);
    }
  }
  return [...ids];
}

/** "820 bytes", "14.2 KB", "1.5 MB" (1 KB = 1,024 bytes, as file managers count). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes.toLocaleString("en-US")} bytes`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toLocaleString("en-US", { maximumFractionDigits: value < 10 ? 1 : 0 })} ${units[unit]}`;
}
