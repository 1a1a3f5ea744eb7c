import { describe, expect, it } from "vitest";
import { parseCsv } from "./csv.server";
import { isProbe, NotFoundCounter, NOT_FOUND_LIMITS, referrerHostOf } from "./not-found.server";

/** The CSV reader of the redirects' import and the not-found log's counting in memory (ADR 054). */

describe("parseCsv", () => {
  it("reads quoted fields, doubled quotes, CRLF and blank lines, with each record's line", async () => {
    expect(await parseCsv('a,b\r\n\r\n"c,d","e ""f"""\n"g\nh",i')).toEqual([
      { line: 1, fields: ["a", "b"] },
      { line: 3, fields: ["c,d", 'e "f"'] },
      { line: 4, fields: ["g\nh", "i"] },
    ]);
  });

  it("names an unclosed quote and a line too long by their lines, on a large input too", async () => {
    expect(await parseCsv('a,b\n"open,c')).toEqual([
      { line: 1, fields: ["a", "b"] },
      { line: 2, message: "a quoted field is not closed" },
    ]);
    // A syntax error ends the reading: named by its line, after the records before it.
    const long = await parseCsv(`/a,/b\n/${"a".repeat(5000)},/b\n/c,/d`);
    expect(long).toEqual([
      { line: 1, fields: ["/a", "/b"] },
      { line: 2, message: expect.stringContaining("too long") },
    ]);
    const quotes = '"'.repeat(500_000);
    expect((await parseCsv(quotes)).length).toBeLessThanOrEqual(1);
  });
  it("reads a file in pieces as it would whole: records across the pieces' edges, and errors past them", async () => {
    // Lines of every length, quoted fields with commas and newlines, so that the pieces' edges fall everywhere.
    const lines = Array.from({ length: 3000 }, (_, i) =>
      i % 7 === 0 ? `"/q${i},\n${"x".repeat(i % 50)}",/to-${i}` : `/p${i}-${"y".repeat(i % 97)},/to-${i},301`,
    );
    const records = await parseCsv(lines.join("\r\n"));
    expect(records).toHaveLength(3000);
    // Each of the 429 quoted records (every seventh) spans two lines.
    expect(records.at(-1)).toEqual({ line: 3429, fields: [`/p2999-${"y".repeat(2999 % 97)}`, "/to-2999", "301"] });
    expect(records.filter((record) => "message" in record)).toEqual([]);
    const open = await parseCsv(`${lines.join("\n")}\n"/open,/x\n/after,/y`);
    expect(open.at(-1)).toMatchObject({ message: "a quoted field is not closed" });
  });
});

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
