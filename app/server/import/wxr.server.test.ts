import { describe, expect, it } from "vitest";
import { bulkPost, WXR_TAIL, wxrFile, wxrHead } from "../../../scripts/lib/exports.mjs";
import { IMPORT_LIMITS, ImportFileError, type ReadFile, type SourcePost } from "./source.server";
import { readWordPress } from "./wxr.server";

/**
 * The WordPress reader against exports made here: fed 7 bytes at a time
 * (every tag, CDATA and UTF-8 character split somewhere), refusing what is
 * not a WordPress export before yielding a post, and reading a huge body or
 * a big file without holding it.
 */

const SITE = "https://old.example.com";
const encoder = new TextEncoder();

function fileOf(text: string, size = 7): ReadFile {
  const bytes = encoder.encode(text);
  return async function* () {
    for (let at = 0; at < bytes.length; at += size) yield await Promise.resolve(bytes.subarray(at, at + size));
  };
}

async function read(text: string, size = 7): Promise<{ total: number; posts: SourcePost[] }> {
  const source = await readWordPress(fileOf(text, size));
  const posts: SourcePost[] = [];
  for await (const post of source.posts()) posts.push(post);
  return { total: source.total, posts };
}

async function refusal(text: string): Promise<string> {
  try {
    await read(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ImportFileError);
    return (error as Error).message;
  }
  throw new Error("the file was read");
}

describe("readWordPress", () => {
  it("reads posts, states, dates, categories, authors, featured images and old addresses", async () => {
    const file = wxrFile(
      SITE,
      [
        {
          id: 11,
          title: "Héllo wörld ✓",
          slug: "hello-world",
          category: { name: "News", nicename: "news" },
          thumbnailId: 90,
          excerpt: "<p>Short</p>",
        },
        { id: 12, title: "A draft", slug: "", status: "draft" },
        { id: 13, title: "Later", slug: "later", status: "future", dateGmt: "2031-03-04 05:06:07" },
        { id: 14, title: "Mine", slug: "mine", status: "private" },
        { id: 15, title: "Binned", slug: "binned", status: "trash" },
        { id: 16, title: "About us", slug: "about-us", type: "page" },
        { id: 17, title: "Auto", slug: "auto", status: "auto-draft" },
        { id: 18, title: "Menu", slug: "menu", type: "nav_menu_item" },
      ],
      [{ id: 90, url: `${SITE}/wp-content/uploads/cat.jpg`, alt: "A cat" }],
    );
    const { total, posts } = await read(file);
    expect(total).toBe(6);
    expect(posts.map((post) => post.title)).toEqual([
      "Héllo wörld ✓",
      "A draft",
      "Later",
      "Mine",
      "Binned",
      "About us",
    ]);
    const [hello, draft, later, mine, binned, page] = posts as [
      SourcePost,
      SourcePost,
      SourcePost,
      SourcePost,
      SourcePost,
      SourcePost,
    ];
    expect(hello).toMatchObject({
      sourceKey: `wordpress:${SITE}:11`,
      slug: "hello-world",
      excerpt: "<p>Short</p>",
      html: "<p>Body of Héllo wörld ✓</p>",
      author: "Olivia Owner",
      category: { name: "News", oldPath: "/category/news" },
      state: "published",
      publishDate: "2020-01-05T10:00:00.000Z",
      oldPaths: ["/hello-world", "/?p=11"],
      featureImage: { url: `${SITE}/wp-content/uploads/cat.jpg`, alt: "A cat" },
      siteUrl: SITE,
    });
    expect(hello.skip).toBeUndefined();
    // A draft's link is /?p=ID: that redirect only, never /.
    expect(draft).toMatchObject({ state: "draft", oldPaths: ["/?p=12"], category: null, featureImage: null });
    expect(later).toMatchObject({ state: "scheduled", publishDate: "2031-03-04T05:06:07.000Z" });
    expect(mine.state).toBe("draft");
    expect(binned.skip).toMatch(/trash/);
    expect(page.skip).toMatch(/page/);
  });

  it("refuses a document type, so no entity can expand", async () => {
    const laughs =
      '<?xml version="1.0"?>\n<!DOCTYPE rss [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">' +
      '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>\n<rss><channel><item><title>&c;</title></item></channel></rss>';
    expect(await refusal(laughs)).toMatch(/document type/);
  });

  it("refuses what is not a WordPress export, and malformed XML, with the line", async () => {
    expect(await refusal('<?xml version="1.0"?><feed><entry/></feed>')).toMatch(/not a WordPress export/);
    expect(await refusal("")).toMatch(/not a WordPress export/);
    const broken = `${wxrHead(SITE)}<item><title>Unclosed</item>${WXR_TAIL}`;
    expect(await refusal(broken)).toMatch(/not well-formed XML \(line \d+\)/);
    expect(await refusal(`${wxrHead(SITE)}<item><title>&undefined;</title></item>${WXR_TAIL}`)).toMatch(/well-formed/);
  });

  it("cuts a huge body as it streams: the post is reported, the next read whole", async () => {
    const huge = "<p>" + "x".repeat(IMPORT_LIMITS.htmlChars + 10) + "</p>";
    const file = wxrFile(SITE, [
      { id: 1, title: "Huge", slug: "huge", html: huge },
      { id: 2, title: "Fine", slug: "fine" },
    ]);
    const before = process.memoryUsage().heapUsed;
    const { posts } = await read(file, 64 * 1024);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(64 * 1024 * 1024);
    expect(posts[0]).toMatchObject({ html: "", skip: expect.stringMatching(/longer than 1,000,000 characters/) });
    expect(posts[1]).toMatchObject({ title: "Fine", html: "<p>Body of Fine</p>" });
  });

  it("yields 5,000 posts in file order", async () => {
    const file = wxrFile(
      SITE,
      Array.from({ length: 5000 }, (_, i) => bulkPost(i + 1, 200)),
    );
    const { total, posts } = await read(file, 1024 * 1024);
    expect(total).toBe(5000);
    expect(posts).toHaveLength(5000);
    expect(posts[4999]).toMatchObject({ title: "Bulk post 5000", oldPaths: ["/bulk-post-5000", "/?p=5000"] });
  });
});
