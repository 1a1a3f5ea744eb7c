import { describe, expect, it } from "vitest";
import { heldBytesPerPixel, MAX_HELD_BYTES, MAX_IMAGE_PIXELS, pixelLimitFor } from "./images.server";

const rgb = { channels: 3, depth: "uchar", hasAlpha: false, isProgressive: false } as const;

describe("pixelLimitFor", () => {
  it("allows 50 megapixels where the decoder shrinks or streams: baseline JPEG, WebP, 8-bit PNG without transparency", () => {
    expect(pixelLimitFor("jpeg", { ...rgb, chromaSubsampling: "4:2:0" })).toEqual({ pixels: MAX_IMAGE_PIXELS });
    expect(pixelLimitFor("webp", { ...rgb, channels: 4, hasAlpha: true })).toEqual({ pixels: MAX_IMAGE_PIXELS });
    expect(pixelLimitFor("png", rgb)).toEqual({ pixels: MAX_IMAGE_PIXELS });
    expect(pixelLimitFor("png", { ...rgb, channels: 1 })).toEqual({ pixels: MAX_IMAGE_PIXELS });
  });

  it.each([
    ["progressive JPEG, 4:2:0", "jpeg", { ...rgb, isProgressive: true, chromaSubsampling: "4:2:0" }, 11_100_000],
    ["progressive JPEG, 4:4:4", "jpeg", { ...rgb, isProgressive: true, chromaSubsampling: "4:4:4" }, 5_500_000],
    [
      "progressive CMYK JPEG",
      "jpeg",
      { ...rgb, channels: 4, isProgressive: true, chromaSubsampling: "4:4:4:4" },
      4_100_000,
    ],
    ["interlaced PNG", "png", { ...rgb, isProgressive: true }, 11_100_000],
    ["PNG with transparency", "png", { ...rgb, channels: 4, hasAlpha: true }, 8_300_000],
    ["16-bit PNG with transparency", "png", { ...rgb, channels: 4, hasAlpha: true, depth: "ushort" }, 4_100_000],
    ["GIF", "gif", { ...rgb, channels: 4, hasAlpha: true }, 8_300_000],
    ["AVIF", "avif", rgb, 2_200_000],
  ] as const)("holds a %s to what fits in MAX_HELD_BYTES", (_label, format, facts, pixels) => {
    const limit = pixelLimitFor(format, facts);
    expect(limit.pixels).toBe(pixels);
    expect(limit.kind).toBeTruthy();
    expect(limit.pixels * heldBytesPerPixel(format, facts).bytes).toBeLessThanOrEqual(MAX_HELD_BYTES);
  });

  it("lets a 1920 x 1080 AVIF and an 8-megapixel progressive JPEG in", () => {
    expect(pixelLimitFor("avif", rgb).pixels).toBeGreaterThanOrEqual(1920 * 1080);
    expect(pixelLimitFor("jpeg", { ...rgb, isProgressive: true, chromaSubsampling: "4:2:0" }).pixels).toBeGreaterThan(
      3264 * 2448,
    );
  });
});
