import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Connection } from "~/server/db/db.server";
import { resolveDatabase } from "~/server/platform/config.server";
import { ApiClient, startServer, type TestServer } from "../support/server";

/**
 * Share cards over HTTP on the built server (issue 47, ADR 073): every
 * public page names a 1200x630 JPEG of at most 300 KB by an absolute URL,
 * with the Open Graph and Twitter tags the crawlers read; an article with an
 * uploaded header image shows a crop of it; a changed title names a new
 * card; a card is drawn once by one job, however many requests ask for it.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const SITE = "https://cards.example.test";
const MAX_CARD_BYTES = 300 * 1024;

let server: TestServer;
let admin: ApiClient;
let database: Connection;

beforeAll(async () => {
  server = await startServer({ SITE_URL: SITE, COMPANY_NAME: "Ojai Cards" });
  admin = new ApiClient(server.url);
  await admin.signIn();
  database = connect(resolveDatabase(server.databaseUrl, ROOT));
}, 60_000);
afterAll(async () => {
  await database?.db.destroy();
  await server?.stop();
});

let count = 0;
const postFields = () => ({
  title: `Card post ${count}`,
  slug: `card-post-${count}`,
  excerpt: "What the card's post says",
  content: "Body text",
  category: "Cloud",
  published: true,
  publishDate: "2026-01-15T10:00:00.000Z",
});
async function createPost(fields: Record<string, unknown> = {}) {
  count += 1;
  const { status, json } = await admin.post("/api/admin/posts", { ...postFields(), ...fields });
  expect(status).toBe(201);
  return json as { id: string; slug: string };
}

/** Every <meta> of a page by its property or name (the HTML's entities decoded for the few that occur). */
async function metaOf(pathname: string): Promise<Map<string, string>> {
  const response = await fetch(`${server.url}${pathname}`);
  expect(response.status).toBe(200);
  const html = await response.text();
  const tags = new Map<string, string>();
  for (const [, key, content] of html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)"\/>/g))
    tags.set(
      key!,
      content!
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&#x27;/g, "'")
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, "&"),
    );
  return tags;
}

/** The card an absolute og:image names, fetched from the test server. */
async function fetchCard(url: string) {
  expect(url.startsWith(`${SITE}/images/cards/`)).toBe(true);
  const response = await fetch(`${server.url}${url.slice(SITE.length)}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes };
}

async function expectCardImage(url: string) {
  const card = await fetchCard(url);
  expect(card.status).toBe(200);
  expect(card.headers.get("content-type")).toBe("image/jpeg");
  expect(card.headers.get("cache-control")).toContain("immutable");
  expect(card.bytes.length).toBeLessThanOrEqual(MAX_CARD_BYTES);
  const info = await sharp(card.bytes).metadata();
  expect({ format: info.format, width: info.width, height: info.height }).toEqual({
    format: "jpeg",
    width: 1200,
    height: 630,
  });
  return card.bytes;
}

function expectShareTags(tags: Map<string, string>, url: string) {
  expect(tags.get("og:url")).toBe(url);
  expect(tags.get("og:title")).toBeTruthy();
  expect(tags.get("og:description")).toBeTruthy();
  expect(tags.get("og:image")).toMatch(/^https:\/\/cards\.example\.test\/images\/cards\/[0-9a-f]{32}\.jpg$/);
  expect(tags.get("og:image:width")).toBe("1200");
  expect(tags.get("og:image:height")).toBe("630");
  expect(tags.get("twitter:card")).toBe("summary_large_image");
  expect(tags.get("twitter:image")).toBe(tags.get("og:image"));
}

const cardKey = (url: string) => /([0-9a-f]{32})\.jpg$/.exec(url)![1]!;

describe("every public page", () => {
  let post: { slug: string };
  beforeAll(async () => {
    post = await createPost({ title: "Moving a clinic to the cloud & keeping every <record>" });
  });

  it.each([
    ["the landing page", () => "/"],
    ["the About page", () => "/about"],
    ["the blog", () => "/blog"],
    ["an article", () => `/blog/${post.slug}`],
    ["a category page", () => "/blog/category/cloud"],
    ["the privacy page", () => "/privacy"],
  ])("%s names a 1200x630 JPEG card of at most 300 KB", async (_name, pathname) => {
    const tags = await metaOf(pathname());
    expectShareTags(tags, `${SITE}${pathname()}`);
    await expectCardImage(tags.get("og:image")!);
  });

  it("an article is og:type article with its published time; the other pages are websites", async () => {
    const article = await metaOf(`/blog/${post.slug}`);
    expect(article.get("og:type")).toBe("article");
    expect(article.get("article:published_time")).toBe("2026-01-15T10:00:00.000Z");
    expect(article.get("og:title")).toBe("Moving a clinic to the cloud & keeping every <record>");
    expect((await metaOf("/about")).get("og:type")).toBe("website");
  });

  it("pages with different words have different cards", async () => {
    const images = await Promise.all(["/", "/about", "/blog", "/blog/category/cloud", "/privacy"].map(metaOf));
    expect(new Set(images.map((tags) => tags.get("og:image"))).size).toBe(5);
  });
});

describe("an article with an uploaded header image", () => {
  it("shows a crop of the image, described by its alt text", async () => {
    // A red photo: the site's own card is green, so the crop's colours tell them apart.
    const photo = await sharp({ create: { width: 1600, height: 1000, channels: 3, background: "#c0302a" } })
      .png()
      .toBuffer();
    const upload = await admin.uploadPng(photo);
    const post = await createPost({ headerImage: upload.url, headerImageAlt: "A red barn at dusk" });
    const tags = await metaOf(`/blog/${post.slug}`);
    expect(tags.get("og:image:alt")).toBe("A red barn at dusk");
    const bytes = await expectCardImage(tags.get("og:image")!);
    const { channels } = await sharp(bytes).stats();
    expect(channels[0]!.mean).toBeGreaterThan(150);
    expect(channels[1]!.mean).toBeLessThan(90);
  });
});

describe("a card", () => {
  it("changes with the title: the new title names a new card, the old one still answers", async () => {
    const post = await createPost({ title: "Before the rename" });
    const before = (await metaOf(`/blog/${post.slug}`)).get("og:image")!;
    await expectCardImage(before);
    const renamed = await admin.put(`/api/admin/posts/${post.id}`, {
      ...postFields(),
      slug: post.slug,
      title: "After the rename",
    });
    expect(renamed.status).toBe(200);
    const after = (await metaOf(`/blog/${post.slug}`)).get("og:image")!;
    expect(after).not.toBe(before);
    const [oldBytes, newBytes] = await Promise.all([expectCardImage(before), expectCardImage(after)]);
    expect(oldBytes.equals(newBytes)).toBe(false);
  });

  it("is drawn once by one job, however many requests name it or fetch it at once", async () => {
    const post = await createPost({ title: "Asked for by many at once" });
    // The article and its in-place view on /blog: two pages the cache keeps apart, rendered side by side.
    const paths = [`/blog/${post.slug}`, `/blog?article=${post.slug}`];
    const pages = await Promise.all(Array.from({ length: 8 }, (_, i) => metaOf(paths[i % 2]!)));
    const url = pages[0]!.get("og:image")!;
    expect(new Set(pages.map((tags) => tags.get("og:image")))).toEqual(new Set([url]));
    const cards = await Promise.all(Array.from({ length: 8 }, () => fetchCard(url)));
    expect(cards.map((card) => card.status)).toEqual(Array(8).fill(200));
    expect(new Set(cards.map((card) => card.bytes.toString("base64"))).size).toBe(1);
    // Rendered again after the card is stored: named from memory, nothing queued.
    await admin.put(`/api/admin/posts/${post.id}`, {
      ...postFields(),
      slug: post.slug,
      title: "Asked for by many at once",
    });
    for (const path of paths) expect((await metaOf(path)).get("og:image")).toBe(url);

    const key = cardKey(url);
    const jobsOfCard = () =>
      database.db
        .selectFrom("jobs")
        .select(["status", "attempts"])
        .where("kind", "=", "share-card.render")
        .where("idempotency_key", "=", `share-card:${key}`)
        .execute();
    // The card is stored inside its job's run; the job is marked done a moment after.
    const deadline = Date.now() + 10_000;
    let jobs = await jobsOfCard();
    while (jobs.some((job) => job.status === "running") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      jobs = await jobsOfCard();
    }
    expect(jobs).toEqual([{ status: "done", attempts: 1 }]);
    const stored = await database.db.selectFrom("share_cards").select("key").where("key", "=", key).execute();
    expect(stored).toHaveLength(1);
  });

  it("that no page named is a 404 at once, as is any other name", async () => {
    const started = Date.now();
    for (const name of [`${"0".repeat(32)}.jpg`, "x.jpg", `${"a".repeat(32)}.png`, `${"A".repeat(32)}.jpg`]) {
      const response = await fetch(`${server.url}/images/cards/${name}`);
      expect(response.status).toBe(404);
    }
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
