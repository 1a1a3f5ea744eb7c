import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { categoryFeedHref, categoryHref, categorySlugOf, CATEGORY_SLUG_MAX, isCategorySlug } from "./categories";
import { slugify } from "./slug";

describe("category slugs", () => {
  it("are the slug rule applied to the name, shared by names that differ in case or punctuation", () => {
    expect(categorySlugOf("Web Design")).toBe("web-design");
    expect(categorySlugOf("web design")).toBe("web-design");
    expect(categorySlugOf("  Web -- Design! ")).toBe("web-design");
    expect(categorySlugOf("C++ & Rust")).toBe("c-rust");
  });

  it("are empty (no page) for a name without a letter or digit", () => {
    for (const name of ["", "   ", "!!!", "日本語"]) expect(categorySlugOf(name)).toBe("");
  });

  it("of any name the API accepts are the slug rule's and fit the column", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 100, unit: "binary" }), (name) => {
        const slug = categorySlugOf(name);
        expect(slug).toBe(slugify(name));
        expect(slug.length).toBeLessThanOrEqual(CATEGORY_SLUG_MAX);
        if (slug) expect(isCategorySlug(slug)).toBe(true);
      }),
    );
    expect(categorySlugOf("İ".repeat(100)).length).toBeLessThanOrEqual(CATEGORY_SLUG_MAX);
  });

  it("accepts only well-formed, bounded slugs for a page", () => {
    expect(isCategorySlug("web-design")).toBe(true);
    expect(isCategorySlug("a".repeat(CATEGORY_SLUG_MAX))).toBe(true);
    for (const bad of [
      "",
      "Web-Design",
      "web--design",
      "-web",
      "web-",
      "a/b",
      "a%20b",
      "a".repeat(CATEGORY_SLUG_MAX + 1),
    ])
      expect(isCategorySlug(bad)).toBe(false);
  });

  it("link page 1 without ?page, and the feed beside the page", () => {
    expect(categoryHref("news")).toBe("/blog/category/news");
    expect(categoryHref("news", 1)).toBe("/blog/category/news");
    expect(categoryHref("news", 3)).toBe("/blog/category/news?page=3");
    expect(categoryFeedHref("news")).toBe("/blog/category/news/rss.xml");
  });
});
