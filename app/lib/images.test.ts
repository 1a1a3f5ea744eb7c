import { describe, expect, it } from "vitest";
import { imageSrcSet, parseImageVariantPath, variantWidthsFor } from "./images";

const id = "a".repeat(64);

describe("variantWidthsFor", () => {
  it("uses the standard widths below the image's width, then the width itself, capped at 1600", () => {
    expect(variantWidthsFor(4000)).toEqual([320, 640, 960, 1280, 1600]);
    expect(variantWidthsFor(1600)).toEqual([320, 640, 960, 1280, 1600]);
    expect(variantWidthsFor(1000)).toEqual([320, 640, 960, 1000]);
    expect(variantWidthsFor(640)).toEqual([320, 640]);
    expect(variantWidthsFor(200)).toEqual([200]);
  });
});

describe("imageSrcSet", () => {
  it("lists every stored variant of an uploaded image", () => {
    expect(imageSrcSet(`/images/${id}-1000.webp`)).toBe(
      `/images/${id}-320.webp 320w, /images/${id}-640.webp 640w, /images/${id}-960.webp 960w, /images/${id}-1000.webp 1000w`,
    );
  });

  it("is undefined for any other URL", () => {
    expect(imageSrcSet("https://example.com/a.jpg")).toBeUndefined();
    expect(imageSrcSet(`/images/${id}.webp`)).toBeUndefined();
    expect(imageSrcSet(`/images/${id}-0.webp`)).toBeUndefined();
  });
});

describe("parseImageVariantPath", () => {
  it("accepts a path or a file name, nothing else", () => {
    expect(parseImageVariantPath(`/images/${id}-640.webp`)).toEqual({ id, width: 640 });
    expect(parseImageVariantPath(`${id}-640.webp`)).toEqual({ id, width: 640 });
    expect(parseImageVariantPath(`../${id}-640.webp`)).toBeUndefined();
    expect(parseImageVariantPath(`${id.toUpperCase()}-640.webp`)).toBeUndefined();
  });
});
