import { describe, expect, it } from "vitest";
import { isProbe, NotFoundCounter, NOT_FOUND_LIMITS, referrerHostOf } from "./not-found.server";

/** The not-found log's counting in memory (ADR 054). */

describe("the not-found counter", () => {
  it("drops probes of other platforms' files, keeps the site's own old addresses", () => {
    for (const path of ["/wp-login.php", "/.env", "/.git/config", "/x/admin.ASPX", "/cgi-bin/a", "/wp-admin/"]) {
      expect(isProbe(path), path).toBe(true);
    }
    for (const path of ["/old-page", "/2019/05/post/", "/wp-content/uploads/a.jpg", "/page.html"]) {
      expect(isProbe(path), path).toBe(false);
    }
  });

  it("counts per path, cuts long paths, and holds a bounded number of paths until the next write", () => {
    const counter = new NotFoundCounter();
    counter.record("/a?x=1", "https://news.example/item");
    counter.record("/a", undefined);
    counter.record(`/${"b".repeat(10_000)}`, "not a url");
    counter.record("/wp-login.php", undefined);
    const pending = (counter as unknown as { pending: Map<string, { hits: number; referrerHost: string | null }> })
      .pending;
    expect(pending.get("/a")).toMatchObject({ hits: 2, referrerHost: "news.example" });
    expect([...pending.keys()].every((path) => path.length <= NOT_FOUND_LIMITS.path)).toBe(true);
    for (let i = 0; i < NOT_FOUND_LIMITS.pending * 2; i++) counter.record(`/flood-${i}`, undefined);
    expect(pending.size).toBe(NOT_FOUND_LIMITS.pending);
    expect(counter.dropped).toBeGreaterThan(NOT_FOUND_LIMITS.pending - 2);
  });

  it("keeps no query and no token: a share link's, an invitation's, or any random-looking segment", () => {
    const token = "q8Zr3_xK1LmN0pQ2rS4tU6vW8xY9zA7bC5dE3fG1hIj";
    const counter = new NotFoundCounter();
    const pending = (counter as unknown as { pending: Map<string, unknown> }).pending;
    counter.record(`/old-page?token=${token}&utm_source=x`, undefined);
    counter.record(`/blog/preview/${token}x`, undefined);
    counter.record(`/Blog/Pr%65view/${token}/more`, undefined);
    counter.record(`/admin/invite/${token}`, undefined);
    counter.record(`/files/${token}/report.pdf`, undefined);
    counter.record(`/blog/previewq${token}`, undefined);
    // A token that the cut at NOT_FOUND_LIMITS.path would split: none of it is kept.
    counter.record(`/${"a".repeat(NOT_FOUND_LIMITS.path - 20)}/${token}`, undefined);
    counter.record("/2019/05/my-long-blog-post-title-about-things/", undefined);
    const paths = [...pending.keys()];
    expect(paths).toEqual([
      "/old-page",
      "/blog/preview/[token]",
      "/admin/invite/[token]",
      "/files/[token]/report.pdf",
      "/blog/[token]",
      `/${"a".repeat(NOT_FOUND_LIMITS.path - 20)}/[token]`.slice(0, NOT_FOUND_LIMITS.path),
      "/2019/05/my-long-blog-post-title-about-things/",
    ]);
    for (const path of paths) {
      expect(path).not.toContain("?");
      expect(path).not.toContain(token.slice(0, 8));
      expect(path).not.toContain(token.slice(-8));
    }
  });

  it("reads only a referring host, bounded", () => {
    expect(referrerHostOf("https://www.Example.org/path?q")).toBe("www.example.org");
    expect(referrerHostOf(`https://a.example/${"x".repeat(5000)}`)).toBeNull();
    expect(referrerHostOf("android-app://com.example")).toBe("com.example");
    expect(referrerHostOf(undefined)).toBeNull();
  });
});
