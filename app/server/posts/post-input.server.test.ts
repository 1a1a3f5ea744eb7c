import { describe, expect, it } from "vitest";
import { REQUIRED_FIELDS_MESSAGE } from "~/lib/post-rules";
import { parsePostInput } from "./post-input.server";

const valid = { title: "T", slug: "t", excerpt: "E", content: "C" };

describe("parsePostInput", () => {
  it("applies the new-post defaults", () => {
    const result = parsePostInput(valid);
    expect(result).toEqual({
      ok: true,
      value: {
        ...valid,
        category: "",
        author: undefined,
        readTime: "5 min read",
        published: false,
        publishDate: undefined,
        headerImage: null,
        // Per-post SEO (docs/product/contract.md#post-seo-fields): left out means null and false.
        metaTitle: null,
        metaDescription: null,
        headerImageAlt: null,
        noindex: false,
        emailSubscribers: false,
      },
    });
  });

  it("normalises publishDate to ISO 8601 UTC", () => {
    const result = parsePostInput({ ...valid, publishDate: "2026-03-01T09:30:00+02:00" });
    expect(result.ok && result.value.publishDate).toBe("2026-03-01T07:30:00.000Z");
  });

  it("the required-fields message wins over other problems", () => {
    expect(parsePostInput({ ...valid, title: "", slug: "Bad Slug" })).toEqual({
      ok: false,
      message: REQUIRED_FIELDS_MESSAGE,
    });
  });

  it("takes emailSubscribers as a boolean alone", () => {
    const result = parsePostInput({ ...valid, emailSubscribers: true });
    expect(result.ok && result.value.emailSubscribers).toBe(true);
    for (const value of ["true", 1, "yes", {}]) {
      expect(parsePostInput({ ...valid, emailSubscribers: value })).toEqual({
        ok: false,
        message: "emailSubscribers must be true or false",
      });
    }
  });

  it("rejects non-objects", () => {
    expect(parsePostInput(null).ok).toBe(false);
    expect(parsePostInput("x").ok).toBe(false);
  });
});
