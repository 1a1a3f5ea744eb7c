import { createHash } from "node:crypto";
import type { Metadata, Sharp } from "sharp";
import { IMAGE_VARIANT_CONTENT_TYPE, IMAGE_VARIANT_FORMAT, imageVariantPath, variantWidthsFor } from "~/lib/images";
import { BoundedWork } from "./bounded-work.server";
import { isUniqueViolation, type Db } from "./db/db.server";

/**
 * Decompression-bomb guard: an image may declare at most this many pixels
 * (50 megapixels covers any current phone or camera photo; decoding one takes
 * about 200 MB), and no side longer than MAX_IMAGE_SIDE.
 */
export const MAX_IMAGE_PIXELS = 50_000_000;
export const MAX_IMAGE_SIDE = 12_000;

export const UNSUPPORTED_IMAGE_MESSAGE = "The file is not a JPEG, PNG, WebP, GIF or AVIF image";

/** 415: not an image we accept, judged by its content. */
export class UnsupportedImageError extends Error {
  constructor(message = UNSUPPORTED_IMAGE_MESSAGE) {
    super(message);
  }
}

/** 413: a real image, but with more pixels than we decode. */
export class ImageTooLargeError extends Error {}

type SourceFormat = "jpeg" | "png" | "webp" | "gif" | "avif";

const CONTENT_TYPES: Record<SourceFormat, string> = {
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  avif: "image/avif",
};

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

export interface StoredImage {
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
}

type SharpFactory = typeof import("sharp").default;
let loading: Promise<SharpFactory> | undefined;

/**
 * sharp (libvips and its codecs, about 20 MB resident) loads with the first
 * upload, not at start: most processes never see one.
 */
function loadSharp(): Promise<SharpFactory> {
  loading ??= import("sharp").then(({ default: sharp }) => {
    // libvips keeps up to 50 MB of recent operations for reuse; an upload's
    // images are never seen again, so that is memory held for nothing.
    sharp.cache(false);
    // One libvips worker thread per image (sharp's own default on glibc):
    // more threads, more buffers at once, for work that is rare.
    sharp.concurrency(1);
    return sharp;
  });
  return loading;
}

/**
 * One image processed at a time per process, and at most this many uploads
 * admitted (processing, or waiting with their file read or arriving): each
 * holds its file, up to 10 MiB, until it is done. One upload waits while
 * another is processed; past that an upload is answered 503.
 */
export const IMAGE_UPLOADS_ADMITTED = 2;
export const imageWork = new BoundedWork(IMAGE_UPLOADS_ADMITTED, 1);
export const IMAGES_BUSY_MESSAGE = "The server is busy processing other images: try again in a few seconds";
export const IMAGES_BUSY_RETRY_SECONDS = 5;

async function encode(pipeline: Sharp): Promise<Encoded> {
  const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

function masterPipeline(base: Sharp, format: SourceFormat): Sharp {
  switch (format) {
    case "jpeg":
      return base.jpeg({ quality: 90 });
    case "png":
      return base.png({ compressionLevel: 6 });
    case "webp":
      return base.webp({ quality: 90 });
    case "gif":
      return base.gif();
    case "avif":
      return base.avif({ quality: 70, effort: 2 });
  }
}

/**
 * Checks an upload by its content and prepares what is stored: the image
 * re-encoded in its own format with every metadata block (EXIF, GPS, XMP,
 * comments) dropped and the orientation applied, plus WebP variants.
 */
export async function processImage(input: Buffer): Promise<{
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
  if (width * height > MAX_IMAGE_PIXELS || width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    throw new ImageTooLargeError(
      `The image is ${width} x ${height} pixels; at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels ` +
        `and ${MAX_IMAGE_SIDE} pixels per side are accepted`,
    );
  }

  // sharp writes no metadata unless asked (keepMetadata/withMetadata), so
  // every output below is stripped. rotate() applies the EXIF orientation first.
  const base = sharp(input, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: "error", animated: false }).rotate();
  try {
    const master = await encode(masterPipeline(base.clone(), format));
    const variants: Encoded[] = [];
    for (const targetWidth of variantWidthsFor(master.width)) {
      variants.push(
        await encode(
          base.clone().resize({ width: targetWidth, withoutEnlargement: true }).webp({ quality: 80, effort: 4 }),
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
          content_type: CONTENT_TYPES[processed.format],
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

export async function findImage(db: Db, id: string): Promise<StoredImage | undefined> {
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

export async function findImageVariant(
  db: Db,
  id: string,
  width: number,
): Promise<{ bytes: Uint8Array; contentType: string } | undefined> {
  const row = await db
    .selectFrom("image_variants")
    .select(["bytes", "content_type"])
    .where("image_id", "=", id)
    .where("format", "=", IMAGE_VARIANT_FORMAT)
    .where("width", "=", width)
    .executeTakeFirst();
  return row && { bytes: row.bytes, contentType: row.content_type };
}
