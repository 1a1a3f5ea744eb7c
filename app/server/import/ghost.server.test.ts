import { describe, expect, it } from "vitest";
import { readGhost } from "./ghost.server";
import { IMPORT_LIMITS, ImportFileError, type ReadFile, type SourcePost } from "./source.server";

/**
 * The Ghost reader against exports made here from objects: fed a few bytes
 * at a time, so every token (and UTF-8 character) is split somewhere, and
 * against large generated files, read without holding them.
 */

const encoder = new TextEncoder();

/** A stored file whose chunks `chunks` makes afresh on every read, each handed over after an await, as from the database. */
function stored(chunks: () => Iterable<Uint8Array>): ReadFile {
  return async function* () {
    for (const chunk of chunks()) yield await Promise.resolve(chunk);
  };
}

function* piecesOf(bytes: Uint8Array, size: number): Generator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/** A file of `text`, `size` bytes at a time. */
function fileOf(text: string, size = 7): ReadFile {
  const bytes = encoder.encode(text);
  return stored(() => piecesOf(bytes, size));
}

/**
 * The heap's live bytes: a full collection first, so that the garbage of
 * chunks already read does not count. Without it the figure depends on
 * when the collector last ran, which in a worker shared with other files
 * (isolate: false) depends on what ran before. Vitest's workers expose
 * `gc` (vitest.config.ts).
 */
function liveHeap(): number {
  (globalThis as unknown as { gc: () => void }).gc();
  return process.memoryUsage().heapUsed;
}

async function postsOf(read: ReadFile, siteUrl: string | null = null): Promise<SourcePost[]> {
  const posts: SourcePost[] = [];
  for await (const post of readGhost(read, { siteUrl })) posts.push(post);
  return posts;
}

/** Why the reader refuses a file: it must do so before yielding any post. */
async function refusal(read: ReadFile): Promise<string> {
  let yielded = 0;
  try {
    for await (const _post of readGhost(read, { siteUrl: null })) yielded++;
  } catch (error) {
    expect(error).toBeInstanceOf(ImportFileError);
    expect(yielded).toBe(0);
    return (error as Error).message;
  }
  throw new Error("the file was read");
}

/** A Ghost 5 export: tables out of order, an internal tag, two authors, a page, an email-only post. */
function ghostExport(): object {
  return {
    db: [
      {
        meta: { exported_on: 1_700_000_000_000, version: "5.75.0" },
        data: {
          posts_tags: [
            { id: "pt1", post_id: "p1", tag_id: "t2", sort_order: 1 },
            { id: "pt2", post_id: "p1", tag_id: "t1", sort_order: 0 },
            { id: "pt3", post_id: "p1", tag_id: "t3", sort_order: 2 },
            { id: "pt4", post_id: "p2", tag_id: "t1", sort_order: 0 },
            { id: "pt5", post_id: "p3", tag_id: "t3", sort_order: 0 },
          ],
          posts: [
            {
              id: "p1",
              uuid: "5b1e0b9e-0f0a-4d5c-9d43-4f1e2b3c4d5e",
              title: "Crème brûlée at “Le Café” 🍮",
              slug: "creme-brulee",
              mobiledoc: null,
              lexical: JSON.stringify({ root: { children: [{ type: "paragraph", text: "x".repeat(300) }] } }),
              html: '<p>Sweet "quote"\n<img src="__GHOST_URL__/content/images/2023/01/a.jpg"></p><a href="__GHOST_URL__/b/">b</a>',
              comment_id: "p1",
              feature_image: "__GHOST_URL__/content/images/2023/01/cover.jpg",
              featured: false,
              type: "post",
              status: "published",
              locale: null,
              visibility: "public",
              email_recipient_filter: "all",
              created_at: "2023-01-14T09:00:00.000Z",
              updated_at: "2023-01-15T10:30:00.000Z",
              published_at: "2023-01-15T10:00:00.000Z",
              custom_excerpt: "A custom excerpt",
              codeinjection_head: null,
              custom_template: null,
              canonical_url: null,
              newsletter_id: null,
              show_title_and_feature_image: true,
              author_id: "u1",
            },
            {
              id: "p2",
              title: "A draft",
              slug: "a-draft",
              html: "<p>Not yet</p>",
              feature_image: null,
              type: "post",
              status: "draft",
              published_at: null,
              custom_excerpt: null,
              author_id: "u2",
            },
            {
              id: "p3",
              title: "Later",
              slug: "later",
              html: "<p>Soon</p>",
              feature_image: "https://cdn.example.org/later.png",
              type: "post",
              status: "scheduled",
              published_at: "2031-06-01T08:00:00.000Z",
              custom_excerpt: "",
              author_id: "u1",
            },
            {
              id: "pg1",
              title: "About",
              slug: "about",
              html: "<p>About us</p>",
              type: "page",
              status: "published",
              published_at: "2022-01-01T00:00:00.000Z",
            },
            {
              id: "p5",
              title: "Newsletter only",
              slug: "newsletter-only",
              html: null,
              type: "post",
              status: "sent",
              published_at: "2023-02-01T00:00:00.000Z",
            },
          ],
          tags: [
            { id: "t1", name: "#hidden", slug: "hash-hidden", visibility: "internal", description: null },
            { id: "t2", name: "Desserts", slug: "desserts", visibility: "public", description: "Sweet things" },
            { id: "t3", name: "Food", slug: "food", visibility: "public" },
          ],
          users: [
            { id: "u1", name: "Ada Lovelace", slug: "ada", email: "ada@example.com", bio: null },
            { id: "u2", name: "Grace Hopper", slug: "grace", email: "grace@example.com" },
          ],
          posts_authors: [
            { id: "pa1", post_id: "p1", author_id: "u2", sort_order: 1 },
            { id: "pa2", post_id: "p1", author_id: "u1", sort_order: 0 },
            { id: "pa3", post_id: "p3", author_id: "u2", sort_order: 0 },
          ],
          posts_meta: [{ id: "pm1", post_id: "p1", feature_image_alt: "A cracked caramel top", og_image: null }],
          settings: [{ id: "s1", key: "title", value: "Old blog", type: "string" }],
        },
      },
    ],
  };
}

const SITE = "https://old.example.com/";

describe("the Ghost reader", () => {
  it("reads every field of a Ghost 5 export's posts, in file order, skipping the page and the email-only post", async () => {
    const posts = await postsOf(fileOf(JSON.stringify(ghostExport())), SITE);
    expect(posts).toEqual([
      {
        sourceKey: "ghost:p1",
        title: "Crème brûlée at “Le Café” 🍮",
        slug: "creme-brulee",
        excerpt: "A custom excerpt",
        html: '<p>Sweet "quote"\n<img src="https://old.example.com/content/images/2023/01/a.jpg"></p><a href="https://old.example.com/b/">b</a>',
        author: "Ada Lovelace",
        category: { name: "Desserts", oldPath: "/tag/desserts" },
        state: "published",
        publishDate: "2023-01-15T10:00:00.000Z",
        oldPaths: ["/creme-brulee"],
        featureImage: { url: "https://old.example.com/content/images/2023/01/cover.jpg", alt: "A cracked caramel top" },
        siteUrl: SITE,
      },
      {
        sourceKey: "ghost:p2",
        title: "A draft",
        slug: "a-draft",
        excerpt: "",
        html: "<p>Not yet</p>",
        author: "Grace Hopper",
        category: null,
        state: "draft",
        publishDate: null,
        oldPaths: [],
        featureImage: null,
        siteUrl: SITE,
      },
      {
        sourceKey: "ghost:p3",
        title: "Later",
        slug: "later",
        excerpt: "",
        html: "<p>Soon</p>",
        author: "Grace Hopper",
        category: { name: "Food", oldPath: "/tag/food" },
        state: "scheduled",
        publishDate: "2031-06-01T08:00:00.000Z",
        oldPaths: [],
        featureImage: { url: "https://cdn.example.org/later.png", alt: "" },
        siteUrl: SITE,
      },
      expect.objectContaining({
        sourceKey: "ghost:pg1",
        title: "About",
        skip: "a Ghost page: only posts are imported",
      }),
      expect.objectContaining({
        sourceKey: "ghost:p5",
        state: "draft",
        skip: "has no HTML in the export (re-export from Ghost 5 or later)",
      }),
    ]);
    expect(posts.slice(0, 3).every((post) => post.skip === undefined)).toBe(true);
  });

  it("leaves __GHOST_URL__ as it is when the old site's address is not given", async () => {
    const [first] = await postsOf(fileOf(JSON.stringify(ghostExport())));
    expect(first!.siteUrl).toBeNull();
    expect(first!.html).toContain('src="__GHOST_URL__/content/images/2023/01/a.jpg"');
    expect(first!.featureImage).toEqual({
      url: "__GHOST_URL__/content/images/2023/01/cover.jpg",
      alt: "A cracked caramel top",
    });
  });

  it("reads an older export: a byte order mark, meta and data at its root, numeric ids, `page: true`", async () => {
    const file = {
      meta: { exported_on: 1_500_000_000_000, version: "1.25.0" },
      data: {
        posts: [
          {
            id: 1,
            title: "Old one",
            slug: "old-one",
            html: "<p>Old</p>",
            page: false,
            status: "published",
            published_at: 1_500_000_000_000,
            author_id: 7,
          },
          { id: 2, title: "Old page", slug: "old-page", html: "<p>Page</p>", page: true, status: "published" },
        ],
        users: [{ id: 7, name: "Old Author" }],
        tags: [{ id: 3, name: "Notes", slug: "notes" }],
        posts_tags: [{ id: 1, post_id: 1, tag_id: 3 }],
      },
    };
    const posts = await postsOf(fileOf("\uFEFF" + JSON.stringify(file, null, 2)));
    expect(posts).toHaveLength(2);
    expect(posts[0]).toMatchObject({
      sourceKey: "ghost:1",
      author: "Old Author",
      category: { name: "Notes", oldPath: "/tag/notes" },
      state: "published",
      publishDate: new Date(1_500_000_000_000).toISOString(),
      oldPaths: ["/old-one"],
    });
    expect(posts[0]!.skip).toBeUndefined();
    expect(posts[1]!.skip).toBe("a Ghost page: only posts are imported");
  });

  it("skips nested values and rows that are not objects", async () => {
    const file = {
      db: [
        {
          meta: {},
          data: {
            posts: [
              null,
              {
                id: "n1",
                title: { nested: ["a", { b: [1, 2] }] },
                html: "<p>ok</p>",
                extra: [[[{}]]],
                status: "draft",
              },
              "stray",
            ],
          },
        },
      ],
    };
    const posts = await postsOf(fileOf(JSON.stringify(file)));
    expect(posts).toEqual([expect.objectContaining({ sourceKey: "ghost:n1", title: "", html: "<p>ok</p>" })]);
  });

  it("refuses a file that is JSON but not a Ghost export", async () => {
    for (const text of [
      '{"db":[{"meta":{},"data":{"tags":[]}}]}',
      '{"data":{"posts":{}}}',
      "[1, 2]",
      '"posts"',
      "{}",
    ]) {
      expect(await refusal(fileOf(text))).toBe("This is not a Ghost export: it has no posts table");
    }
  });

  it("refuses a file that is not JSON, saying near where", async () => {
    const text = JSON.stringify(ghostExport());
    const broken = text.replace('"slug":"later"', '"slug":later');
    const message = await refusal(fileOf(broken));
    expect(message).toMatch(/^The file is not valid JSON \(near byte [\d,]+\)$/);
    const near = Number(message.split("near byte ")[1]!.replace(")", "").replaceAll(",", ""));
    const at = encoder.encode(broken.slice(0, broken.indexOf('"slug":later'))).length;
    expect(near).toBeGreaterThan(at);
    expect(near).toBeLessThanOrEqual(at + 4_096 + 7);

    expect(await refusal(fileOf("<?xml version='1.0'?><rss/>"))).toMatch(/^The file is not valid JSON \(near byte /);
    expect(await refusal(fileOf(text + " trailing"))).toMatch(/^The file is not valid JSON \(near byte /);
    expect(await refusal(fileOf(text.slice(0, -20)))).toBe(
      "The file is not valid JSON: it ends before the export does",
    );
    expect(await refusal(fileOf(" \n"))).toBe("The file is not valid JSON: it is empty");
  });

  it("yields 5,000 posts in file order", async () => {
    const posts = Array.from({ length: 5_000 }, (_, n) => ({
      id: `id${n}`,
      title: `Post ${n}`,
      slug: `post-${n}`,
      html: `<p>Body ${n}</p>`,
      status: "published",
      published_at: "2024-01-01T00:00:00.000Z",
    }));
    const read = await postsOf(fileOf(JSON.stringify({ db: [{ meta: {}, data: { posts } }] }), 1_000));
    expect(read.map((post) => post.sourceKey)).toEqual(posts.map((post) => `ghost:${post.id}`));
    expect(read.every((post) => post.skip === undefined && post.state === "published")).toBe(true);
  });

  it(`stops after ${IMPORT_LIMITS.items.toLocaleString("en-US")} items, and stops reading the file`, async () => {
    const rows = Array.from({ length: IMPORT_LIMITS.items + 5 }, (_, n) => `{"id":"${n}","html":""}`);
    const bytes = encoder.encode(`{"data":{"posts":[${rows.join(",")}]}}`);
    let opened = 0;
    let closed = 0;
    const read = stored(function* () {
      opened++;
      try {
        yield* piecesOf(bytes, 4_000);
      } finally {
        closed++;
      }
    });
    const posts = await postsOf(read);
    expect(posts).toHaveLength(IMPORT_LIMITS.items);
    expect(posts.at(-1)!.sourceKey).toBe(`ghost:${IMPORT_LIMITS.items - 1}`);
    expect({ opened, closed }).toEqual({ opened: 2, closed: 2 });
  });

  it("reads a 20 MB body without holding it, nor 20 MB strings elsewhere, and the posts around it", async () => {
    const BIG = 20 * 1024 * 1024;
    const file = {
      db: [
        {
          meta: {},
          data: {
            settings: [{ key: "huge", value: "@BIG@" }],
            posts: [
              { id: "a", title: "Before", html: "<p>a</p>", mobiledoc: "@BIG@", status: "published", slug: "a" },
              { id: "big", title: "Huge", html: "@BIG@", status: "published", slug: "big" },
              { id: "c", title: "After", html: "<p>c</p>", "@BIG@": 1, status: "published", slug: "c" },
            ],
          },
        },
      ],
    };
    const pieces = JSON.stringify(file)
      .split('"@BIG@"')
      .map((piece) => encoder.encode(piece));
    const block = encoder.encode("<p>0123456789</p>".repeat(Math.ceil((1024 * 1024) / 17)).slice(0, 1024 * 1024));
    const quote = encoder.encode('"');
    const baseline = liveHeap();
    let peak = baseline;
    const read = stored(function* () {
      for (const [n, piece] of pieces.entries()) {
        yield piece;
        if (n === pieces.length - 1) break;
        yield quote;
        for (let sent = 0; sent < BIG; sent += block.length) {
          // Every 4 MB: a body held whole would be live at the next one.
          if (sent % (4 * block.length) === 0) peak = Math.max(peak, liveHeap());
          yield block;
        }
        yield quote;
      }
    });
    const posts = await postsOf(read);
    expect(posts.map((post) => [post.sourceKey, post.html, post.skip])).toEqual([
      ["ghost:a", "<p>a</p>", undefined],
      ["ghost:big", "", "its body is longer than 1,000,000 characters"],
      ["ghost:c", "<p>c</p>", undefined],
    ]);
    expect(posts[1]!.title).toBe("Huge");
    expect(peak - baseline).toBeLessThan(15 * 1024 * 1024);
  });
});
