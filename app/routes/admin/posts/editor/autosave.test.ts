import { describe, expect, it } from "vitest";
import { shortTime } from "~/content/revisions";
import { differs, draftFromAutosave } from "./autosave";
import { newPostDraft } from "../post-draft";
import { draftFromRevision } from "./post-kind";

const base = { ...newPostDraft("Ojai", new Date("2026-11-24T10:00:00.000Z")), id: "p1", title: "A", content: "B" };

describe("differs", () => {
  it("takes a blank optional field and null alike, and sees any other change", () => {
    expect(differs(base, { ...base, metaTitle: "", headerImage: "", headerImageAlt: "  " })).toBe(false);
    expect(differs(base, { ...base, content: "B." })).toBe(true);
    expect(differs(base, { ...base, published: true })).toBe(true);
  });
});

describe("drafts from the server", () => {
  const fields = {
    slug: "s",
    category: "c",
    readTime: "3 min read",
    published: true,
    headerImage: null,
    metaTitle: null,
    metaDescription: null,
    headerImageAlt: null,
    noindex: false,
    emailSubscribers: false,
  };
  it("an autosave keeps the form's author and date where it has none", () => {
    const draft = draftFromAutosave(
      {
        ...fields,
        emailSubscribers: true,
        postId: "p1",
        title: "T",
        excerpt: "E",
        content: "C",
        author: null,
        publishDate: null,
        baseUpdatedAt: "x",
        savedAt: "y",
      },
      base,
    );
    expect(draft).toMatchObject({
      id: "p1",
      title: "T",
      author: "Ojai",
      publishDate: base.publishDate,
      slug: "s",
      emailSubscribers: true,
    });
  });
  it("a revision brings back its words and fields, and keeps the post's id, address, publishing and mailing", () => {
    const draft = draftFromRevision(
      {
        ...fields,
        emailSubscribers: true,
        id: "r1",
        postId: "p1",
        number: 3,
        title: "Old",
        excerpt: "E",
        content: "C",
        author: "Someone",
        publishDate: "2026-01-01T00:00:00.000Z",
        createdAt: "z",
        savedBy: "a@example.com",
      },
      base,
    );
    expect(draft).toMatchObject({
      id: "p1",
      title: "Old",
      author: "Someone",
      slug: base.slug,
      publishDate: base.publishDate,
      published: base.published,
      emailSubscribers: false,
    });
  });
});

describe("shortTime", () => {
  it("is the time today and the date with it on other days", () => {
    const now = new Date(2026, 10, 24, 15, 0);
    expect(shortTime(new Date(2026, 10, 24, 14, 2).toISOString(), now)).toBe("14:02");
    expect(shortTime(new Date(2026, 10, 20, 9, 5).toISOString(), now)).toBe("20 Nov, 09:05");
    expect(shortTime(new Date(2025, 0, 2, 9, 5).toISOString(), now)).toBe("2 Jan 2025, 09:05");
    expect(shortTime("not a date", now)).toBe("");
  });
});
