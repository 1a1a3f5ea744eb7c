import { describe, expect, it } from "vitest";
import { ADMIN_PAGE_SIZE, adminListHref, MAX_ADMIN_PAGE, MAX_OFFSET } from "~/lib/admin-lists";
import { parseMessageScreenQuery } from "../messages/index.server";
import { parsePostListQuery, parsePostScreenQuery } from "./list-query.server";

const url = (query: string) => new URL(`http://site.test/x?${query}`);

describe("the admin lists' query strings", () => {
  it("fill in the defaults: 50 from the start, newest first, no filter", () => {
    expect(parsePostListQuery(url(""))).toEqual({
      ok: true,
      value: { limit: ADMIN_PAGE_SIZE, offset: 0, q: undefined, sort: "-publishDate" },
    });
    expect(parsePostListQuery(url("q=&limit=100&offset=7&sort=title&other=ignored"))).toEqual({
      ok: true,
      value: { limit: 100, offset: 7, q: undefined, sort: "title" },
    });
  });

  it("keep the filter as typed, spaces and wildcards included", () => {
    const parsed = parsePostListQuery(url(`q=${encodeURIComponent(" 100%_\\ ")}`));
    expect(parsed).toMatchObject({ ok: true, value: { q: " 100%_\\ " } });
  });

  it("turn a screen's page into its offset; the last page any screen reaches is within MAX_OFFSET", () => {
    expect(parsePostScreenQuery(url("page=3&q=x"))).toEqual({
      ok: true,
      value: { page: 3, limit: ADMIN_PAGE_SIZE, offset: 2 * ADMIN_PAGE_SIZE, q: "x", sort: "-publishDate" },
    });
    const last = parseMessageScreenQuery(url(`page=${MAX_ADMIN_PAGE}`));
    expect(last.ok && last.value.offset).toBeLessThanOrEqual(MAX_OFFSET);
    expect(parseMessageScreenQuery(url(`page=${MAX_ADMIN_PAGE + 1}`))).toEqual({
      ok: false,
      message: `page must be a whole number from 1 to ${MAX_ADMIN_PAGE.toLocaleString("en-US")}`,
    });
  });

  it("refuse a long filter before looking at its characters", () => {
    expect(parsePostListQuery(url(`q=${"%00".repeat(201)}`))).toEqual({
      ok: false,
      message: "q is too long (200 characters at most)",
    });
  });
});

describe("adminListHref", () => {
  it("spells each view one way, leaving the defaults out", () => {
    expect(adminListHref("/admin")).toBe("/admin");
    expect(adminListHref("/admin", { page: 1, q: "", sort: "-publishDate" })).toBe("/admin");
    expect(adminListHref("/admin", { page: 4, q: "a b&c", sort: "title" })).toBe("/admin?q=a+b%26c&sort=title&page=4");
    expect(adminListHref("/admin/messages", { page: 2 })).toBe("/admin/messages?page=2");
  });
});
