import { describe, expect, it } from "vitest";
import { blogPageHref, pageOfIndex, pageWindow, parseBlogPage } from "./blog-pages";

describe("blog pages", () => {
  it("page 1 is /blog, others carry ?page=", () => {
    expect(blogPageHref(1)).toBe("/blog");
    expect(blogPageHref(3)).toBe("/blog?page=3");
  });

  it("reads ?page= as /blog does: absent is 1, digits from 1 up, anything else none", () => {
    expect(parseBlogPage(null)).toBe(1);
    expect(parseBlogPage("2")).toBe(2);
    expect(parseBlogPage("002")).toBe(2);
    for (const refused of ["", "0", "-1", "1.5", "+2", " 2", "2 ", "abc", "1234567"])
      expect(parseBlogPage(refused)).toBeUndefined();
  });

  it("finds the page of an article by its index (12 per page)", () => {
    expect(pageOfIndex(0)).toBe(1);
    expect(pageOfIndex(11)).toBe(1);
    expect(pageOfIndex(12)).toBe(2);
  });

  it("shows first, last and two either side, with gaps", () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(50, 834)).toEqual([1, null, 48, 49, 50, 51, 52, null, 834]);
    expect(pageWindow(4, 10)).toEqual([1, 2, 3, 4, 5, 6, null, 10]);
  });
});
