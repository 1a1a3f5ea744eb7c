import type { RouteConfigEntry } from "@react-router/dev/routes";
import { describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { checkFromPath, checkTarget, localPathOf, RESERVED_PATHS, reservedPathMessage, routedPath } from "./redirects";
import routes from "~/routes";

/** The rules of a redirect's from and to (ADR 054), as the API, the screen, the CSV import and a restore apply them. */

describe("checkFromPath", () => {
  it.each([
    ["/old-page", "/old-page"],
    ["  /old-page/  ", "/old-page"],
    ["/a/./b/../c", "/a/c"],
    ["/über", "/%C3%BCber"],
    ["/2019/05/post/", "/2019/05/post"],
    ["/wp-content/uploads/a.jpg", "/wp-content/uploads/a.jpg"],
    // Near the reserved addresses, but not them.
    ["/administration", "/administration"],
    ["/apis", "/apis"],
    ["/my-images", "/my-images"],
    ["/blog/admin", "/blog/admin"],
    ["/blog/preview-of-2025", "/blog/preview-of-2025"],
    ["/old/rss.xml", "/old/rss.xml"],
    ["/blog/category/old/rss.xml", "/blog/category/old/rss.xml"],
    ["/data", "/data"],
    ["/report.database", "/report.database"],
    ["/%C3%BCber", "/%C3%BCber"],
    ["/a%2Fb", "/a%2Fb"],
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
    // The site's own addresses in other spellings (a redirect from them would be answered first).
    "/%61dmin",
    "/%2561dmin",
    "/%252561dmin",
    "/ADMIN",
    "/Admin/Posts",
    "/admin/",
    "/admin.data",
    "/ADMIN.DATA",
    "/admin/redirects.data",
    "/_root.data",
    "/foo/_root.data",
    "/blog.data",
    "/blog/_.data",
    "/a/../admin",
    "/a/%2e%2e/admin",
    "/a/%252e%252e/admin",
    "/a%2F..%2Fadmin",
    "/a%5C..%5Cadmin",
    "/x\\..\\admin",
    "/.%2Fadmin",
    "/%2F%2Fadmin",
    "/%5Cadmin",
    "/admin%3Fx",
    "/api/x",
    "/Api/Posts",
    "/assets/x.js",
    "/images/x",
    "/IMAGES/photo.webp",
    "/__manifest",
    "/blog/preview/abc",
    "/pages/preview/landing",
    "/rss.xml",
    "/RSS.XML",
    "/robots.txt",
    "/sitemap.xml",
    "/sitemap-posts.xml",
    "/favicon.ico",
    "/favicon.svg",
    "/%252e",
    "/a b",
    "/a\u0000",
    "/a\u0085",
    "/\ud800",
    `/${"a".repeat(500)}`,
  ])("refuses %j", (input) => {
    expect(checkFromPath(input).ok).toBe(false);
  });
});

describe("the site's own addresses", () => {
  it("reads a path as a router could: decoded until settled, in lower case, slashes and dot segments resolved", () => {
    expect(routedPath("/%2561dmin/")).toBe("/admin");
    expect(routedPath("//A\\.\\b/../C/")).toBe("/a/c");
    expect(routedPath("/%C3%BCber")).toBe("/%c3%bcber");
    expect(routedPath(`/%${"25".repeat(7)}61dmin`)).toBe("/admin");
    expect(routedPath(`/%${"25".repeat(8)}61dmin`)).toBeUndefined();
    // Linear: a long path of escapes is settled at once, not character by character.
    expect(routedPath(`/${"%2561".repeat(100)}`)).toBe(`/${"a".repeat(100)}`);
  });

  it("covers every route of the site that is not a page a redirect may replace, and every file at the top", () => {
    // The route table itself, layouts and prefixes applied: not its text.
    const pathsOf = (entries: RouteConfigEntry[], parent = ""): string[] =>
      entries.flatMap((entry) => {
        const here = [parent, entry.path].filter(Boolean).join("/");
        return entry.children?.length ? pathsOf(entry.children, here) : entry.index ? [] : [`/${here}`];
      });
    const paths = pathsOf(routes);
    // The public pages and feeds a redirect may lead away from (the owner's choice), and /home (the home page's alias).
    const pages = new Set([
      "/home",
      "/blog",
      "/blog/search",
      "/blog/:slug",
      "/blog/category/:slug",
      "/blog/category/:slug/rss.xml",
      "/about",
      "/privacy",
      "/book",
      "/newsletter",
      "/*",
    ]);
    for (const route of paths) {
      if (pages.has(route)) continue;
      const sample = route.replaceAll(/:\w+\??|\*/g, "x");
      expect(reservedPathMessage(sample), route).toBeDefined();
    }
    for (const file of fs.readdirSync(path.join(import.meta.dirname, "../../public"))) {
      expect(reservedPathMessage(`/${file}`), file).toBeDefined();
    }
    expect(RESERVED_PATHS.prefixes).toContain("/assets");
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
