import { createHash } from "node:crypto";
import type { Metadata, Sharp, SharpOptions } from "sharp";
import { IMAGE_VARIANT_CONTENT_TYPE, IMAGE_VARIANT_FORMAT, imageVariantPath, variantWidthsFor } from "~/lib/images";
import { loadOnce } from "~/lib/load-once";
import { BoundedWork } from "../platform/bounded-work.server";
import { isUniqueViolation, type Db } from "../db/db.server";

/**
 * Decompression-bomb guard (ADR 013): an image may declare at most this many
 * pixels (50 megapixels covers any phone or camera photo), and no side
 * longer than MAX_IMAGE_SIDE. Images whose decoder holds much of the image
 * at once get less (pixelLimitFor, ADR 032).
 */
export const MAX_IMAGE_PIXELS = 50_000_000;
const MAX_IMAGE_SIDE = 12_000;
/**
 * What a decoder may hold at once beyond what shrink-on-load avoids: one
 * upload's work stays within about 50 MB of a process's 200 (ADR 032).
 */
export const MAX_HELD_BYTES = 32 * 1024 * 1024;
/**
 * The stored copy of an upload (what its variants, and any later ones, are
 * made from) is at most this many pixels on its longer side: 1.28 times the
 * widest variant. Encoders hold their whole image (WebP about 10 bytes a
 * pixel), so a full-size copy of a 48-megapixel photo cannot be written in
 * a process's 200 MB.
 */
const MAX_STORED_SIDE = 2048;

const UNSUPPORTED_IMAGE_MESSAGE = "The file is not a JPEG, PNG, WebP, GIF or AVIF image";

/** 415: not an image we accept, judged by its content. */
export class UnsupportedImageError extends Error {
  constructor(message = UNSUPPORTED_IMAGE_MESSAGE) {
    super(message);
  }
}

/** 413: a real image, but with more pixels than we decode. */
export class ImageTooLargeError extends Error {}

type SourceFormat = "jpeg" | "png" | "webp" | "gif" | "avif";

const ascii = (bytes: Uint8Array, start: number, end: number) =>
  Buffer.from(bytes.subarray(start, end)).toString("latin1");

/**
 * The format the bytes themselves announce (magic numbers), before any
 * decoder sees them: names and declared types are ignored, and formats sharp
 * could also read (SVG, TIFF, HEIC, PDF...) never reach it.
 */
export function sniffImageFormat(bytes: Uint8Array): SourceFormat | undefined {
  if (bytes.length < 12) return undefined;
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (ascii(bytes, 0, 8) === "\x89PNG\r\n\x1a\n") return "png";
  if (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a") return "gif";
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP") return "webp";
  if (ascii(bytes, 4, 8) === "ftyp") {
    // ISO-BMFF: AVIF when the major brand or a compatible brand is avif/avis.
    const boxSize = Buffer.from(bytes.subarray(0, 4)).readUInt32BE(0);
    const end = Math.min(boxSize, bytes.length, 256);
    const brands = [ascii(bytes, 8, 12)];
    for (let offset = 16; offset + 4 <= end; offset += 4) brands.push(ascii(bytes, offset, offset + 4));
    if (brands.includes("avif") || brands.includes("avis")) return "avif";
  }
  return undefined;
}

interface StoredImage {
  id: string;
  /** URL of the widest variant: what a post stores as headerImage. */
  url: string;
  width: number;
  height: number;
  variants: Array<{ width: number; height: number; url: string; bytes: number }>;
}

interface Encoded {
  data: Buffer;
  width: number;
  height: number;
  contentType: string;
}

/**
 * sharp (libvips and its codecs, about 20 MB resident) loads with the first
 * upload, not at start: most processes never see one. A load that failed
 * (a file briefly missing during a deploy) is tried again by the next upload.
 */
const loadSharp = loadOnce(() =>
  import("sharp").then(({ default: sharp }) => {
    // libvips keeps up to 50 MB of recent operations for reuse; an upload's
    // images are never seen again, so that is memory held for nothing.
    sharp.cache(false);
    // One libvips worker thread per image (sharp's own default on glibc):
    // more threads, more buffers at once, for work that is rare.
    sharp.concurrency(1);
    return sharp;
  }),
);

/**
 * One image processed at a time per process, and at most this many uploads
 * admitted (processing, or waiting with their file read or arriving): each
 * holds its file, up to 10 MiB, until it is done. One upload waits while
 * another is processed; past that an upload is answered 503.
 */
const IMAGE_UPLOADS_ADMITTED = 2;
export const imageWork = new BoundedWork(IMAGE_UPLOADS_ADMITTED, 1);
export const IMAGES_BUSY_MESSAGE = "The server is busy processing other images: try again in a few seconds";
export const IMAGES_BUSY_RETRY_SECONDS = 5;

type DecoderFacts = Pick<Metadata, "isProgressive" | "hasAlpha" | "depth" | "channels" | "chromaSubsampling">;

/**
 * The bytes a pixel costs while decoding, when the decoder cannot shrink the
 * image as it reads it (0 when it can), and the kind of image that makes it
 * so, for the 413. Measured with libvips 8.18 (ADR 032).
 */
export function heldBytesPerPixel(format: SourceFormat, facts: DecoderFacts): { bytes: number; kind?: string } {
  const channels = facts.channels ?? 4;
  const sampleBytes = facts.depth === "ushort" ? 2 : 1;
  switch (format) {
    case "jpeg":
      // Baseline: read a few rows at a time and shrunk while decoded (1/2 to
      // 1/8). Progressive: every DCT coefficient (2 bytes) is kept until the
      // last scan: 1.5 a pixel with 4:2:0 colour, one a channel otherwise.
      if (!facts.isProgressive) return { bytes: 0 };
      return {
        bytes: 2 * (facts.chromaSubsampling === "4:2:0" ? 1.5 : channels),
        kind: "a progressive JPEG (a baseline JPEG may have 50)",
      };
    case "webp":
      // libwebp decodes straight to the size asked for.
      return { bytes: 0 };
    case "png":
      // An 8-bit PNG without transparency streams. Interlacing keeps the
      // whole image; transparency and 16-bit samples widen every row libvips
      // holds while it shrinks (~1 byte a pixel per channel and sample byte).
      if (!facts.isProgressive && !facts.hasAlpha && sampleBytes === 1) return { bytes: 0 };
      return {
        bytes: channels * sampleBytes,
        kind: "an interlaced PNG or one with transparency or 16-bit colour (other PNGs may have 50)",
      };
    case "gif":
      // The whole frame, 4 bytes a pixel.
      return { bytes: 4, kind: "a GIF" };
    case "avif":
      // libheif and libaom hold the frame several times over (15-19 bytes a
      // pixel measured; 15 lets a 1920 x 1080 image in, at ~45 MB).
      return { bytes: 15, kind: "an AVIF image" };
  }
}

/** The most pixels an image may declare, and the kind the 413 names when it is below MAX_IMAGE_PIXELS. */
export function pixelLimitFor(format: SourceFormat, facts: DecoderFacts): { pixels: number; kind?: string } {
  const held = heldBytesPerPixel(format, facts);
  if (held.bytes === 0) return { pixels: MAX_IMAGE_PIXELS };
  // Rounded down to a tenth of a megapixel, as the 413 quotes it.
  const pixels = Math.floor(MAX_HELD_BYTES / held.bytes / 100_000) * 100_000;
  return pixels >= MAX_IMAGE_PIXELS ? { pixels: MAX_IMAGE_PIXELS } : { pixels, kind: held.kind };
}

/**
 * The stored copy's encoder. JPEG and PNG keep their format (both encoders
 * write row by row). WebP keeps its own; AVIF is stored as WebP, as AVIF's
 * encoder takes about 35 bytes a pixel; GIF is stored as PNG (lossless, and
 * GIF's palette search takes several times the image). `optimiseCoding`
 * off lets JPEG write as it goes: on, libjpeg keeps every coefficient of the
 * image to build its Huffman tables (about 290 MB for 48 megapixels).
 */
function storedCopy(pipeline: Sharp, format: SourceFormat): { pipeline: Sharp; contentType: string } {
  switch (format) {
    case "jpeg":
      return { pipeline: pipeline.jpeg({ quality: 90, optimiseCoding: false }), contentType: "image/jpeg" };
    case "png":
    case "gif":
      return { pipeline: pipeline.png({ compressionLevel: 6 }), contentType: "image/png" };
    case "webp":
    case "avif":
      return { pipeline: pipeline.webp({ quality: 90 }), contentType: "image/webp" };
  }
}

async function encode(pipeline: Sharp, contentType: string): Promise<Encoded> {
  const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, contentType };
}

/**
 * Checks an upload by its content and prepares what is stored: a copy of the
 * image at most MAX_STORED_SIDE on its longer side, with every metadata
 * block (EXIF, GPS, XMP, comments) dropped and the orientation applied,
 * plus WebP variants made from that copy. Callers run it (through storeImage)
 * inside an `imageWork` admission, so one image is decoded at a time.
 */
async function processImage(input: Buffer): Promise<{
  id: string;
  format: SourceFormat;
  master: Encoded;
  variants: Encoded[];
}> {
  const format = sniffImageFormat(input);
  if (!format) throw new UnsupportedImageError();
  const sharp = await loadSharp();

  let metadata: Metadata;
  try {
    // Reads the header only: dimensions are known before any pixel is decoded.
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new UnsupportedImageError("The image could not be read; it may be damaged");
  }
  const expected = format === "avif" ? "heif" : format;
  if (metadata.format !== expected || (format === "avif" && metadata.compression !== "av1")) {
    throw new UnsupportedImageError();
  }
  const { width = 0, height = 0 } = metadata;
  if (width < 1 || height < 1) throw new UnsupportedImageError("The image has no pixels");
  const limit = pixelLimitFor(format, metadata);
  if (width * height > limit.pixels || width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    throw new ImageTooLargeError(
      `The image is ${width} x ${height} pixels; at most ${limit.pixels / 1_000_000} megapixels ` +
        `and ${MAX_IMAGE_SIDE} pixels per side are accepted${limit.kind ? ` for ${limit.kind}` : ""}`,
    );
  }

  // sequentialRead (sharp's default, named here because it matters) lets
  // libvips decode row by row as the encoder takes them; limitInputPixels
  // is a second guard behind the check above.
  const decoding: SharpOptions = {
    limitInputPixels: limit.pixels,
    sequentialRead: true,
    failOn: "error",
    animated: false,
  };
  try {
    // sharp writes no metadata unless asked (keepMetadata/withMetadata), so
    // every output below is stripped. autoOrient() applies the EXIF
    // orientation after the shrink, on the small image; the resize lets JPEG
    // and WebP decode at a fraction of their size (shrink-on-load).
    const copy = storedCopy(
      sharp(input, decoding)
        .autoOrient()
        .resize({ width: MAX_STORED_SIDE, height: MAX_STORED_SIDE, fit: "inside", withoutEnlargement: true }),
      format,
    );
    const master = await encode(copy.pipeline, copy.contentType);
    // The variants come from the stored copy, not the upload: it is oriented
    // and small, so each is one cheap decode (and a re-processing later,
    // from the same copy, makes the same variants).
    const variants: Encoded[] = [];
    for (const targetWidth of variantWidthsFor(master.width)) {
      variants.push(
        await encode(
          sharp(master.data, { failOn: "error" })
            .resize({ width: targetWidth, withoutEnlargement: true })
            .webp({ quality: 80, effort: 4 }),
          IMAGE_VARIANT_CONTENT_TYPE,
        ),
      );
    }
    const id = createHash("sha256").update(input).digest("hex");
    return { id, format, master, variants };
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) throw new ImageTooLargeError(error.message);
    throw new UnsupportedImageError("The image could not be read; it may be damaged");
  }
}

function describe(
  id: string,
  master: { width: number; height: number },
  variants: Array<{ width: number; height: number; byte_size: number }>,
): StoredImage {
  const widest = variants.reduce((a, b) => (b.width > a.width ? b : a));
  return {
    id,
    url: imageVariantPath(id, widest.width),
    width: master.width,
    height: master.height,
    variants: variants
      .sort((a, b) => a.width - b.width)
      .map((v) => ({ width: v.width, height: v.height, url: imageVariantPath(id, v.width), bytes: v.byte_size })),
  };
}

/** Processes and stores an upload; the same bytes uploaded twice are stored once. */
export async function storeImage(db: Db, input: Buffer): Promise<StoredImage> {
  const id = createHash("sha256").update(input).digest("hex");
  const existing = await findImage(db, id);
  if (existing) return existing;

  const processed = await processImage(input);
  const now = new Date().toISOString();
  const variantRows = processed.variants.map((v) => ({
    image_id: id,
    width: v.width,
    height: v.height,
    format: IMAGE_VARIANT_FORMAT,
    content_type: IMAGE_VARIANT_CONTENT_TYPE,
    byte_size: v.data.byteLength,
    bytes: v.data,
  }));
  try {
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto("images")
        .values({
          id,
          source_format: processed.format,
          width: processed.master.width,
          height: processed.master.height,
          content_type: processed.master.contentType,
          byte_size: processed.master.data.byteLength,
          bytes: processed.master.data,
          created_at: now,
        })
        .execute();
      await trx.insertInto("image_variants").values(variantRows).execute();
    });
  } catch (error) {
    // Another request stored the same bytes a moment ago.
    if (!isUniqueViolation(error)) throw error;
  }
  return describe(id, processed.master, variantRows);
}

async function findImage(db: Db, id: string): Promise<StoredImage | undefined> {
  const image = await db.selectFrom("images").select(["id", "width", "height"]).where("id", "=", id).executeTakeFirst();
  if (!image) return undefined;
  const variants = await db
    .selectFrom("image_variants")
    .select(["width", "height", "byte_size"])
    .where("image_id", "=", id)
    .where("format", "=", IMAGE_VARIANT_FORMAT)
    .execute();
  if (variants.length === 0) return undefined;
  return describe(id, image, variants);
}

/** A WebP variant's bytes (served as image/webp whatever its row says: images.$file.ts). */
export async function findImageVariant(db: Db, id: string, width: number): Promise<{ bytes: Uint8Array } | undefined> {
  const row = await db
    .selectFrom("image_variants")
    .select(["bytes"])
    .where("image_id", "=", id)
    .where("format", "=", IMAGE_VARIANT_FORMAT)
    .where("width", "=", width)
    .executeTakeFirst();
  return row && { bytes: row.bytes };
}

/** Whether a variant is stored, without reading its bytes (a revalidation's check). */
export async function imageVariantExists(db: Db, id: string, width: number): Promise<boolean> {
  const row = await db
    .selectFrom("image_variants")
    .select("width")
    .where("image_id", "=", id)
    .where("format", "=", IMAGE_VARIANT_FORMAT)
    .where("width", "=", width)
    .executeTakeFirst();
  return row !== undefined;
}

/** The stored size of each of these uploads that exists, by id, to size them on a page (no bytes read). */
export async function storedImageSizes(
  db: Db,
  ids: string[],
): Promise<Record<string, { width: number; height: number }>> {
  const sizes: Record<string, { width: number; height: number }> = {};
  // A post's 50,000 characters name at most about 600 uploads; a preview's
  // text is bounded by its body limit. In pieces, within any driver's limit.
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom("images")
      .select(["id", "width", "height"])
      .where("id", "in", ids.slice(i, i + 500))
      .execute();
    for (const row of rows) sizes[row.id] = { width: row.width, height: row.height };
  }
  return sizes;
}
