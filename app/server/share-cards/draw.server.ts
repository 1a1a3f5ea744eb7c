import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp, { type OverlayOptions } from "sharp";
import { CARD_HEIGHT, CARD_WIDTH } from "./subject.server";

/**
 * Draws a share card (ADR 073): a 1200x630 JPEG, either a crop of the
 * article's header image or the site's own card (the brand's green, a
 * label, the title, the company and the host) set in the bundled Inter by
 * sharp's text renderer (Pango), so a machine without fonts draws the same
 * card. Pure (bytes in, bytes out): it runs in the card drawer's own
 * process (drawer.server.ts), whose memory libvips and Pango may grow
 * without touching the site's.
 */

const QUALITY = 82;
const MARGIN = 80;
const TEXT_WIDTH = CARD_WIDTH - 2 * MARGIN;
/** The title's box: longer titles are set smaller until they fit. */
const TITLE_TOP = 130;
const TITLE_MAX_HEIGHT = 310;
const TITLE_POINTS = 64;
const TITLE_MAX_CHARS = 160;
const COLORS = { from: "#123821", to: "#23633a", accent: "#2f7a43", text: "#ffffff", soft: "#d9eddc" };

/** The bundled fonts: found from this module up, in the sources and in the build alike. */
function fontFile(name: string): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, "assets", "fonts", name);
    if (existsSync(candidate)) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error(`share cards: the font ${name} is missing (assets/fonts)`);
}
let fonts: { bold: string; regular: string } | undefined;
const bundledFonts = () => (fonts ??= { bold: fontFile("Inter-Bold.ttf"), regular: fontFile("Inter-Regular.ttf") });

/** Pango markup is XML: a title's own `<`, `&` and quotes are text. */
export const escapeMarkup = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** At most `max` characters, cut after a whole word where there is one, with an ellipsis. */
function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

interface TextImage {
  data: Buffer;
  height: number;
}

async function setText(
  text: string,
  options: { bold: boolean; points: number; color: string; height?: number },
): Promise<TextImage> {
  const { bold, regular } = bundledFonts();
  const { data, info } = await sharp({
    text: {
      text: `<span foreground="${options.color}">${escapeMarkup(text)}</span>`,
      font: `Inter ${bold ? "Bold" : "Regular"} ${options.points}`,
      fontfile: bold ? bold : regular,
      width: TEXT_WIDTH,
      ...(options.height ? { height: options.height } : { dpi: 72 }),
      rgba: true,
      // Words first; a word longer than the line (a URL, a long compound) is broken too.
      wrap: "word-char",
    },
  })
    .png()
    .toBuffer({ resolveWithObject: true });
  if (info.width <= TEXT_WIDTH) return { data, height: info.height };
  // Pango may still overrun the width (no break allowed): scaled down to fit, never drawn past the card.
  const fitted = await sharp(data).resize({ width: TEXT_WIDTH }).png().toBuffer({ resolveWithObject: true });
  return { data: fitted.data, height: fitted.info.height };
}

/** The title at its full size, or (too long for the box) as large as fits it. */
async function setTitle(title: string): Promise<TextImage> {
  const text = shorten(title, TITLE_MAX_CHARS);
  const full = await setText(text, { bold: true, points: TITLE_POINTS, color: COLORS.text });
  if (full.height <= TITLE_MAX_HEIGHT) return full;
  return setText(text, { bold: true, points: TITLE_POINTS, color: COLORS.text, height: TITLE_MAX_HEIGHT });
}

const background = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="${COLORS.from}"/><stop offset="1" stop-color="${COLORS.to}"/></linearGradient></defs>` +
    `<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="url(#g)"/>` +
    `<rect x="${MARGIN}" y="${CARD_HEIGHT - 150}" width="120" height="8" rx="4" fill="${COLORS.accent}"/></svg>`,
);

/** What the drawer is given: the site's card's words, or the header image's bytes. */
export type CardDrawing =
  { kind: "text"; label: string; title: string; site: string; host: string } | { kind: "photo"; bytes: Uint8Array };

async function drawTextCard(subject: Extract<CardDrawing, { kind: "text" }>): Promise<Buffer> {
  const label = subject.label
    ? await setText(shorten(subject.label, 60), { bold: true, points: 28, color: COLORS.soft })
    : undefined;
  const title = await setTitle(subject.title);
  const site = await setText(shorten(subject.site, 60), { bold: true, points: 32, color: COLORS.text });
  const host = await setText(shorten(subject.host, 60), { bold: false, points: 26, color: COLORS.soft });
  const layers: OverlayOptions[] = [
    { input: title.data, left: MARGIN, top: (TITLE_TOP + Math.max(0, (TITLE_MAX_HEIGHT - title.height) / 2)) | 0 },
    { input: site.data, left: MARGIN, top: CARD_HEIGHT - 122 },
    { input: host.data, left: MARGIN, top: CARD_HEIGHT - 76 },
  ];
  if (label) layers.push({ input: label.data, left: MARGIN, top: 64 });
  return sharp(background).composite(layers).jpeg({ quality: QUALITY, mozjpeg: true }).toBuffer();
}

/** Crawlers refuse larger images; a detailed photo at QUALITY can pass it. */
export const MAX_CARD_BYTES = 300 * 1024;

/** The header image, cropped to the card's shape around what draws the eye, at most MAX_CARD_BYTES. */
async function drawPhotoCard(bytes: Uint8Array): Promise<Buffer> {
  const crop = await sharp(bytes, { limitInputPixels: 4096 * 4096 })
    .resize(CARD_WIDTH, CARD_HEIGHT, { fit: "cover", position: "attention" })
    .flatten({ background: "#ffffff" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: crop.info.width, height: crop.info.height, channels: crop.info.channels } };
  let jpeg = Buffer.alloc(0);
  for (const quality of [QUALITY, 70, 58, 46, 34]) {
    jpeg = await sharp(crop.data, raw).jpeg({ quality, mozjpeg: true }).toBuffer();
    if (jpeg.length <= MAX_CARD_BYTES) break;
  }
  return jpeg;
}

export function drawCard(drawing: CardDrawing): Promise<Buffer> {
  return drawing.kind === "photo" ? drawPhotoCard(drawing.bytes) : drawTextCard(drawing);
}
