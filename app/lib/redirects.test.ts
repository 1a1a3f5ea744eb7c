import { describe, expect, it } from "vitest";
import { checkFromPath, checkTarget, localPathOf } from "./redirects";

/** The rules of a redirect's from and to (ADR 054), as the API, the screen, the CSV import and a restore apply them. */

describe("checkFromPath", () => {
  it.each([
    ["/old-page", "/old-page"],
    ["  /old-page/  ", "/old-page"],
    ["/a/./b/../c", "/a/c"],
    ["/über", "/%C3%BCber"],
    ["/2019/05/post/", "/2019/05/post"],
    ["/wp-content/uploads/a.jpg", "/wp-content/uploads/a.jpg"],
  ])("takes %j as %j", (input, value) => {
    expect(checkFromPath(input)).toEqual({ ok: true, value });
  });

  it.each([
    "",
    "old",
    "//host/x",
    "/\\host",
    "/.//host",
    "/%2e%2e//host",
    "/a?b",
    "/a#b",
    "/",
    "/..",
    "/admin/x",
    "/API",
    "/assets/x.js",
    "/healthz",
    "/a b",
    "/a\u0000",
    "/a\u0085",
    "/\ud800",
    `/${"a".repeat(500)}`,
  ])("refuses %j", (input) => {
    expect(checkFromPath(input).ok).toBe(false);
  });
});

describe("checkTarget", () => {
  it.each([
    ["/about", "/about"],
    ["/blog?page=2", "/blog?page=2"],
    ["/#services", "/#services"],
    ["/.%2F/evil.example", "/.%2F/evil.example"],
    ["https://Example.org/x?y=1", "https://example.org/x?y=1"],
    ["HTTPS://example.org", "https://example.org/"],
  ])("takes %j as %j", (input, value) => {
    expect(checkTarget(input)).toEqual({ ok: true, value });
  });

  it.each([
    "javascript:alert(1)",
    " javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "data:text/html,x",
    "vbscript:x",
    "http://example.org/",
    "ftp://example.org/",
    "//evil.example/",
    "/\\evil.example",
    // Two slashes once dot segments and backslashes are resolved: another host as a Location.
    "/.//evil.example",
    "/..//evil.example",
    "/a/..//evil.example",
    "/%2e//evil.example",
    "/%2E%2E//evil.example",
    "/./\\evil.example",
    "/.\\/evil.example",
    "https://user:pw@example.org/",
    "https://",
    "https:/\tevil",
    "about",
    "",
    `/${"a".repeat(1000)}`,
  ])("refuses %j", (input) => {
    expect(checkTarget(input).ok).toBe(false);
  });
});

describe("localPathOf", () => {
  it("is the path of a target on this site, without its query or trailing slash; none for another site", () => {
    expect(localPathOf("/blog/x/?a=1")).toBe("/blog/x");
    expect(localPathOf("/#services")).toBe("/");
    expect(localPathOf("https://example.org/x")).toBeUndefined();
  });
});
