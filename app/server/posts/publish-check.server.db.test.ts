import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, type FreshDatabase } from "../../../tests/support/database";
import { postRow } from "../../../tests/support/post-row";
import { MAX_CHECKED_REFERENCES } from "~/lib/publish-check";
import { checkBeforePublishing, parsePublishCheckInput } from "./publish-check.server";

/**
 * The check before publishing (ADR 057) against a real database, on the
 * backend under test: which links to posts and uploads would greet readers
 * broken, and which images lack alt text, each at its place in the text.
 */

let database: FreshDatabase;
const now = Date.parse("2026-06-01T12:00:00.000Z");
const iso = (days: number) => new Date(now + days * 86_400_000).toISOString();
const SITE = "https://ojai.example";
const stored = "b".repeat(64);
const gone = "c".repeat(64);
const selfId = randomUUID();

beforeAll(async () => {
  database = await freshDatabase();
  const { db } = database.connection;
  await db
    .insertInto("posts")
    .values([
      postRow("live", iso(-10)),
      postRow("draft", iso(-10), 0),
      postRow("next-week", iso(7)),
      postRow("tomorrow", iso(1)),
      postRow("new-name", iso(-3)),
      { ...postRow("this-post", iso(-1), 0), id: selfId },
    ])
    .execute();
  await db
    .insertInto("images")
    .values({
      id: stored,
      source_format: "png",
      width: 1000,
      height: 500,
      content_type: "image/png",
      byte_size: 1,
      bytes: new Uint8Array([0]),
      created_at: iso(-5),
    })
    .execute();
  const redirect = (from: string, to: string) => ({
    id: randomUUID(),
    from_path: from,
    to_target: to,
    to_path: to.startsWith("/") ? to : null,
    status: 301,
    automatic: 1,
    created_at: iso(-3),
    updated_at: iso(-3),
  });
  await db
    .insertInto("redirects")
    .values([
      redirect("/blog/old-name", "/blog/new-name"),
      redirect("/blog/moved-away", "https://elsewhere.example/x"),
      redirect("/blog/renamed-draft", "/blog/draft"),
    ])
    .execute();
});
afterAll(() => database?.cleanup());

const check = (content: string, publishDate = iso(0), extra: { slug?: string; id?: string } = {}) =>
  checkBeforePublishing(database.connection.db, { content, publishDate, ...extra }, { origins: [SITE], now });

describe("checkBeforePublishing", () => {
  it("a body whose links and images are all fine has nothing to say", async () => {
    const content = [
      "[live](/blog/live) [absolute](https://ojai.example/blog/live/) [relative](live) [with a hash](/blog/live#part)",
      `![A picture](/images/${stored}-1000.webp) ![Narrower](/images/${stored}-640.webp)`,
      "[renamed](/blog/old-name) [gone elsewhere](/blog/moved-away) [search](/blog/search)",
      "[another site](https://other.example/blog/unknown) [mail](mailto:a@b.example) [anchor](#x)",
      "[a category](/blog/category/cloud) [the feed](/rss.xml)",
    ].join("\n\n");
    const { problems } = await check(content);
    expect(problems).toEqual([]);
  });

  it("names each problem with its place: unknown, draft and later posts, missing uploads, images without alt", async () => {
    const lines = [
      "[unknown](/blog/no-such-post)",
      "[draft](https://ojai.example/blog/draft)",
      "[later](/blog/next-week)",
      `![](/images/${stored}-1000.webp)`,
      `[deleted](/images/${gone}-640.webp)`,
      `![A width never stored](/images/${stored}-1600.webp)`,
      "![Not an upload's address](/images/logo.png)",
      "[renamed draft](/blog/renamed-draft)",
      "[ref]: /blog/no-such-post",
    ];
    const content = lines.join("\n\n");
    const { problems, more } = await check(content);
    expect(more).toBe(false);
    expect(problems.map(({ kind }) => kind)).toEqual([
      "unknown-post",
      "draft-post",
      "later-post",
      "image-without-alt",
      "missing-image",
      "missing-image",
      "missing-image",
      "draft-post",
      "unknown-post",
    ]);
    for (const [i, problem] of problems.entries()) {
      expect(content.slice(problem.start, problem.end)).toBe(lines[i]);
    }
    expect(problems[2]).toMatchObject({ slug: "next-week", publishDate: iso(7) });
  });

  it("a post scheduled for later may link to posts that go live before it", async () => {
    const content = "[tomorrow](/blog/tomorrow) [next week](/blog/next-week)";
    expect((await check(content, iso(0))).problems.map(({ kind }) => kind)).toEqual(["later-post", "later-post"]);
    expect((await check(content, iso(3))).problems.map((p) => p.kind === "later-post" && p.slug)).toEqual([
      "next-week",
    ]);
    expect((await check(content, iso(8))).problems).toEqual([]);
    // A publish date in the past publishes now: the scheduled posts are still later.
    expect((await check(content, iso(-30))).problems).toHaveLength(2);
  });

  it("a post may link to itself, by its new slug or (as a draft being published) its stored one", async () => {
    const content = "[me](/blog/my-new-slug) [me before](/blog/this-post)";
    expect((await check(content, iso(0), { slug: "my-new-slug", id: selfId })).problems).toEqual([]);
    expect((await check(content, iso(0))).problems.map(({ kind }) => kind)).toEqual(["unknown-post", "draft-post"]);
  });

  it("reads the first links only, and says so", async () => {
    const content = Array.from({ length: MAX_CHECKED_REFERENCES + 5 }, (_, i) => `[p${i}](/blog/missing-${i})`).join(
      " ",
    );
    const { problems, more } = await check(content);
    expect(problems).toHaveLength(MAX_CHECKED_REFERENCES);
    expect(more).toBe(true);
  });
});

describe("parsePublishCheckInput", () => {
  it("takes a body's content within the post's limit, and an optional date, slug and id", () => {
    expect(parsePublishCheckInput({ content: "x", publishDate: iso(0), slug: "s", id: selfId })).toMatchObject({
      ok: true,
    });
    expect(parsePublishCheckInput({ content: "x".repeat(50_001) })).toEqual({
      ok: false,
      message: "content is too long (50,000 characters at most)",
    });
    expect(parsePublishCheckInput({ content: 5 })).toEqual({ ok: false, message: "content must be text" });
    expect(parsePublishCheckInput({ content: "x", publishDate: "soon" })).toEqual({
      ok: false,
      message: "publishDate must be an ISO 8601 date-time",
    });
    expect(parsePublishCheckInput(null).ok).toBe(false);
  });
});
