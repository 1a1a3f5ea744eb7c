import { describe, expect, it } from "vitest";
import { lineAt, placeNow } from "./publish-check-place";

describe("placeNow", () => {
  const text = "[a](/blog/x) text [a](/blog/x) more [a](/blog/x)";
  it("finds a span where the check found it, or the copy nearest to that place after edits", () => {
    expect(placeNow(text, "[a](/blog/x)", 18)).toEqual({ start: 18, end: 30 });
    expect(placeNow(`typed ${text}`, "[a](/blog/x)", 18)).toEqual({ start: 24, end: 36 });
    expect(placeNow(text, "[a](/blog/x)", 40)).toEqual({ start: 36, end: 48 });
    expect(placeNow(text, "[a](/blog/x)", 0)).toEqual({ start: 0, end: 12 });
  });
  it("answers nothing once the text is gone", () => {
    expect(placeNow(text, "[b](/blog/y)", 5)).toBeUndefined();
    expect(placeNow(text, "", 5)).toBeUndefined();
  });
});

describe("lineAt", () => {
  it("counts lines from 1", () => {
    expect(lineAt("one\ntwo\n\nfour", 0)).toBe(1);
    expect(lineAt("one\ntwo\n\nfour", 4)).toBe(2);
    expect(lineAt("one\ntwo\n\nfour", 9)).toBe(4);
  });
});
