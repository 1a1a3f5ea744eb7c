import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Connection } from "~/server/db/db.server";
import { defaultContent } from "~/content/site-content-defaults";
import { rebuildImageReferences, type ImageListItem } from "~/server/images/image-references.server";
import { rebuildPageImageReferences } from "~/server/images/page-references.server";
import { ApiClient, startServer, type TestServer } from "../support/server";

/**
 * Issue 16, images (ADR 036): which uploads each post uses (its header image
 * and every /images/ URL in its markdown), the unused ones listed and
 * deletable, a used one never deletable, even when a save races the delete;
 * deleting a post may take the images only it used.
 */

let server: TestServer;
let admin: ApiClient;
let db: Connection;
let colour = 0;

beforeAll(async () => {
  server = await startServer();
  admin = new ApiClient(server.url);
  await admin.signIn();
  db = connect(
    server.databaseUrl.startsWith("postgres")
      ? { kind: "postgres", url: server.databaseUrl }
      : { kind: "sqlite", file: server.databaseUrl },
  );
}, 60_000);
afterAll(async () => {
  await db?.db.destroy();
  await server?.stop();
});

/** Uploads a new image (a colour no other test used); answers its id and URLs. */
async function newImage(width = 700) {
  colour++;
  const png = await sharp({
    create: { width, height: 300, channels: 3, background: { r: colour % 256, g: (colour >> 8) % 256, b: 77 } },
  })
    .png()
    .toBuffer();
  const uploaded = await admin.uploadPng(png);
  const id = /\/images\/([\da-f]{64})-/.exec(uploaded.url)![1]!;
  return { id, url: uploaded.url, variants: uploaded.variants };
}

let slugs = 0;
function postBody(fields: { headerImage?: string | null; content?: string; title?: string }) {
  slugs++;
  return {
    title: fields.title ?? `Post ${slugs}`,
    slug: `images-post-${slugs}`,
    excerpt: "An excerpt",
    content: fields.content ?? "Plain text.",
    category: "Images",
    published: true,
    headerImage: fields.headerImage ?? null,
  };
}
async function createPost(fields: Parameters<typeof postBody>[0]) {
  const created = await admin.post("/api/admin/posts", postBody(fields));
  expect(created.status, created.text).toBe(201);
  return created.json as { id: string; slug: string; title: string };
}

/** An item as GET /api/admin/images answers it: the server's own type. */
type Item = ImageListItem;
async function listImages(query = "?unused=1") {
  const answer = await admin.get(`/api/admin/images${query}`);
  expect(answer.status, answer.text).toBe(200);
  return { items: answer.json as Item[], total: Number(answer.headers.get("x-total-count")) };
}
/** Every image no post uses, walking the pages. */
async function unusedIds(): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += 100) {
    const { items } = await listImages(`?unused=1&limit=100&offset=${offset}`);
    ids.push(...items.map((item) => item.id));
    if (items.length < 100) return ids;
  }
}
async function referencesOf(postId: string): Promise<string[]> {
  const rows = await db.db
    .selectFrom("image_references")
    .select("image_id")
    .where("post_id", "=", postId)
    .orderBy("image_id")
    .execute();
  return rows.map((row) => row.image_id);
}

describe("which images a post uses", () => {
  it("counts its header image and every /images/ URL in its content, any variant, once per upload", async () => {
    const header = await newImage();
    const inline = await newImage();
    const absolute = await newImage();
    const unused = await newImage();
    const post = await createPost({
      headerImage: header.url,
      content: [
        "Intro.",
        `![a photo](${inline.variants[0]!.url})`,
        `<img src="${inline.url}">`,
        `See [it large](${server.url}${absolute.url}).`,
        "An external image: https://example.com/images/photo-640.webp",
      ].join("\n\n"),
    });
    expect(await referencesOf(post.id)).toEqual([header.id, inline.id, absolute.id].sort());
    const ids = await unusedIds();
    expect(ids).toContain(unused.id);
    for (const used of [header, inline, absolute]) expect(ids).not.toContain(used.id);
    const all = await listImages("?limit=100");
    expect(all.items.find((item) => item.id === header.id)?.posts).toBe(1);
    expect(all.items.find((item) => item.id === unused.id)?.posts).toBe(0);
  });

  it("follows an update: an image taken out of the post is unused, one put in is used", async () => {
    const first = await newImage();
    const second = await newImage();
    const post = await createPost({ content: `![one](${first.url})` });
    const updated = await admin.put(`/api/admin/posts/${post.id}`, {
      ...postBody({ headerImage: second.url, content: "No images in the text any more." }),
      slug: post.slug,
    });
    expect(updated.status, updated.text).toBe(200);
    expect(await referencesOf(post.id)).toEqual([second.id]);
    const ids = await unusedIds();
    expect(ids).toContain(first.id);
    expect(ids).not.toContain(second.id);
  });

  it("refuses with 409 a save that starts using an image that is not stored", async () => {
    const ghost = `/images/${"ab".repeat(32)}-640.webp`;
    const created = await admin.post("/api/admin/posts", postBody({ content: `![gone](${ghost})` }));
    expect(created.status).toBe(409);
    expect(created.json.error).toMatch(/uses an uploaded image that was deleted/);
    const header = await admin.post("/api/admin/posts", postBody({ headerImage: ghost }));
    expect(header.status).toBe(409);
  });

  it("rebuilds the same references from the posts' text (migration 012's backfill, a restore)", async () => {
    const before = await db.db
      .selectFrom("image_references")
      .selectAll()
      .orderBy("post_id")
      .orderBy("image_id")
      .execute();
    expect(before.length).toBeGreaterThan(3);
    await db.db.transaction().execute((trx) => rebuildImageReferences(trx));
    const after = await db.db
      .selectFrom("image_references")
      .selectAll()
      .orderBy("post_id")
      .orderBy("image_id")
      .execute();
    expect(after).toEqual(before);
  });
});

describe("GET /api/admin/images", () => {
  it("pages the unused images newest first, with X-Total-Count, thumbnails and sizes", async () => {
    for (let i = 0; i < 3; i++) await newImage(400 + i * 300);
    const { items: all, total } = await listImages("?unused=1&limit=100");
    expect(total).toBe(all.length);
    expect(total).toBeGreaterThanOrEqual(3);
    const dates = all.map((item) => item.createdAt);
    expect(dates).toEqual([...dates].sort().reverse());

    const first = await listImages("?unused=1&limit=2");
    expect(first.total).toBe(total);
    expect(first.items.map((item) => item.id)).toEqual(all.slice(0, 2).map((item) => item.id));
    const second = await listImages("?unused=1&limit=2&offset=2");
    expect(second.items.map((item) => item.id)).toEqual(all.slice(2, 4).map((item) => item.id));
    const past = await listImages(`?unused=1&offset=${total}`);
    expect(past.items).toEqual([]);
    expect(past.total).toBe(total);

    // The newest: 1000 px wide, so variants at 320, 640, 960 and 1000.
    const newest = all[0]!;
    expect(newest.width).toBe(1000);
    expect(newest.thumbnailUrl).toBe(`/images/${newest.id}-320.webp`);
    expect(newest.url).toBe(`/images/${newest.id}-1000.webp`);
    const stored = await db.db
      .selectFrom("image_variants")
      .select("byte_size")
      .where("image_id", "=", newest.id)
      .execute();
    const original = await db.db
      .selectFrom("images")
      .select("byte_size")
      .where("id", "=", newest.id)
      .executeTakeFirstOrThrow();
    expect(stored).toHaveLength(4);
    expect(newest.bytes).toBe(original.byte_size + stored.reduce((sum, row) => sum + row.byte_size, 0));
  });

  it("answers 400 to a bad limit, offset or unused", async () => {
    for (const query of ["?limit=0", "?limit=101", "?offset=-1", "?unused=yes", "?limit=1e2"]) {
      const answer = await admin.get(`/api/admin/images${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.json.error).toMatch(/limit|offset|unused/);
    }
  });
});

describe("DELETE /api/admin/images/{id}", () => {
  it("deletes an unused image with its variants (204); its URLs answer 404 from then on, cached or not", async () => {
    const image = await newImage();
    // Fetched twice first, so the page cache holds it, and an ETag to revalidate with.
    const fetched = await fetch(server.url + image.url);
    expect(fetched.status).toBe(200);
    const etag = fetched.headers.get("etag")!;
    expect((await fetch(server.url + image.url)).status).toBe(200);

    const deleted = await admin.delete(`/api/admin/images/${image.id}`);
    expect(deleted.status, deleted.text).toBe(204);
    for (const variant of image.variants) expect((await fetch(server.url + variant.url)).status).toBe(404);
    expect((await fetch(server.url + image.url, { headers: { "If-None-Match": etag } })).status).toBe(404);
    expect(await unusedIds()).not.toContain(image.id);
    const rows = await db.db.selectFrom("image_variants").select("width").where("image_id", "=", image.id).execute();
    expect(rows).toEqual([]);
  });

  it("answers 404 for an unknown or malformed id", async () => {
    expect((await admin.delete(`/api/admin/images/${"cd".repeat(32)}`)).status).toBe(404);
    expect((await admin.delete("/api/admin/images/not-an-id")).status).toBe(404);
  });

  it("answers 409 naming the post while a post uses the image, and keeps it", async () => {
    const image = await newImage();
    const post = await createPost({ title: "Uses the image", content: `![x](${image.url})` });
    const refused = await admin.delete(`/api/admin/images/${image.id}`);
    expect(refused.status).toBe(409);
    expect(refused.json.error).toBe('This image is used by the post "Uses the image"; remove it from that post first');
    expect((await fetch(server.url + image.url)).status).toBe(200);
    expect(await referencesOf(post.id)).toEqual([image.id]);
  });

  it("never leaves a post naming a deleted image when a save races the delete", async () => {
    const post = await createPost({ content: "Nothing yet." });
    const outcomes = new Set<string>();
    for (let round = 0; round < 12; round++) {
      const image = await newImage(330);
      // The delete starts 0 to 33 ms after the save, so either may reach the database first.
      const delay = (round % 4) * 11;
      const [deleted, saved] = await Promise.all([
        new Promise((resolve) => setTimeout(resolve, delay)).then(() => admin.delete(`/api/admin/images/${image.id}`)),
        admin.put(`/api/admin/posts/${post.id}`, {
          ...postBody({ content: `Round ${round}: ![x](${image.url})` }),
          slug: post.slug,
        }),
      ]);
      outcomes.add(`${deleted.status}/${saved.status}`);
      // One wins: the image is gone and the save refused, or the save kept it and the delete refused.
      expect([`204/409`, `409/200`], `round ${round}: ${deleted.text} ${saved.text}`).toContain(
        `${deleted.status}/${saved.status}`,
      );
      const stored = await db.db.selectFrom("images").select("id").where("id", "=", image.id).executeTakeFirst();
      const current = (await admin.get(`/api/admin/posts/${post.id}`)).json as { content: string };
      if (current.content.includes(image.id)) {
        expect(stored, `round ${round}`).toBeDefined();
        expect(await referencesOf(post.id)).toEqual([image.id]);
      }
      // Start the next round from a post that uses nothing, so its image is free to delete.
      const reset = await admin.put(`/api/admin/posts/${post.id}`, {
        ...postBody({ content: "Nothing yet." }),
        slug: post.slug,
      });
      expect(reset.status).toBe(200);
    }
    console.info(`race outcomes (delete/save): ${[...outcomes].join(", ")}`);
  }, 60_000);
});

describe("a page's team photos (ADR 053)", () => {
  const aboutWithPhoto = (url: string | null) => {
    const about = defaultContent("about");
    about.team.members[0]!.photo = url ? { url, alt: "Our founder at the workbench" } : null;
    return about;
  };
  const refusedDelete = async (id: string) => {
    const refused = await admin.delete(`/api/admin/images/${id}`);
    expect(refused.status).toBe(409);
    return refused.json.error as string;
  };

  it("an upload the About page's draft or published document shows is used: not listed as unused, not deleted", async () => {
    const image = await newImage();
    const saved = await admin.put("/api/admin/content/about/draft", {
      document: aboutWithPhoto(image.url),
      baseVersion: 0,
      overDraftVersion: 0,
    });
    expect(saved.status, saved.text).toBe(200);
    expect(await unusedIds()).not.toContain(image.id);
    expect((await listImages("?limit=100")).items.find((item) => item.id === image.id)).toMatchObject({ pages: 1 });
    expect(await refusedDelete(image.id)).toBe("This image is used by the About page; remove it from that page first");

    // Published (the draft goes with it): still used.
    expect((await admin.put("/api/admin/content/about?discardDraft=1", aboutWithPhoto(image.url))).status).toBe(200);
    const post = await createPost({ title: "Also shows the founder", content: `![x](${image.url})` });
    expect(await refusedDelete(image.id)).toBe(
      'This image is used by the post "Also shows the founder" and the About page; remove it from them first',
    );
    expect((await admin.delete(`/api/admin/posts/${post.id}`)).status).toBe(204);

    // A draft without it keeps it used (the published page shows it); publishing without it frees it.
    const version = Number(JSON.parse((await admin.get("/api/admin/content/about")).headers.get("etag")!));
    expect(
      (
        await admin.put("/api/admin/content/about/draft", {
          document: aboutWithPhoto(null),
          baseVersion: version,
          overDraftVersion: 0,
        })
      ).status,
    ).toBe(200);
    expect(await refusedDelete(image.id)).toMatch(/the About page/);
    expect((await admin.put("/api/admin/content/about?discardDraft=1", aboutWithPhoto(null))).status).toBe(200);
    expect(await unusedIds()).toContain(image.id);
    expect((await admin.delete(`/api/admin/images/${image.id}`)).status).toBe(204);
  });

  it("refuses with 409 a draft or a publish that starts showing an upload that was deleted", async () => {
    const image = await newImage();
    expect((await admin.delete(`/api/admin/images/${image.id}`)).status).toBe(204);
    const published = await admin.put("/api/admin/content/about", aboutWithPhoto(image.url));
    expect(published.status).toBe(409);
    expect(published.json.error).toMatch(/^This page uses an uploaded image that was deleted/);
    const draft = await admin.get("/api/admin/content/about/draft");
    const saved = await admin.put("/api/admin/content/about/draft", {
      document: aboutWithPhoto(image.url),
      baseVersion: 0,
      overDraftVersion: draft.status === 200 ? draft.json.draftVersion : 0,
    });
    expect(saved.status).toBe(409);
    expect(saved.json.error).toMatch(/^This page uses an uploaded image that was deleted/);
  });

  it("a restore rebuilds the pages' references from their documents", async () => {
    const image = await newImage();
    expect((await admin.put("/api/admin/content/about", aboutWithPhoto(image.url))).status).toBe(200);
    await db.db.deleteFrom("page_image_references").execute();
    await rebuildPageImageReferences(db.db);
    const rows = await db.db.selectFrom("page_image_references").selectAll().execute();
    expect(rows).toEqual([{ page: "about", image_id: image.id }]);
    expect((await admin.put("/api/admin/content/about", aboutWithPhoto(null))).status).toBe(200);
  });
});

describe("the database's own guard", () => {
  it("refuses the delete when a reference is written between the delete's check and its delete", async () => {
    const image = await newImage();
    const post = await createPost({ title: "Wrote the reference first" });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
    // A save's transaction, held open after it wrote its reference (not yet committed).
    const saving = db.db.transaction().execute(async (trx) => {
      await trx.insertInto("image_references").values({ post_id: post.id, image_id: image.id }).execute();
      inserted();
      await held;
    });
    await insertedYet;
    const deleting = admin.delete(`/api/admin/images/${image.id}`);
    // The delete waits for the save's transaction (PostgreSQL: the image row's key lock; SQLite: the write lock).
    await new Promise((resolve) => setTimeout(resolve, 400));
    release();
    await saving;
    const answer = await deleting;
    expect(answer.status, answer.text).toBe(409);
    expect(answer.json.error).toContain('"Wrote the reference first"');
    expect((await fetch(server.url + image.url)).status).toBe(200);
  });
});

describe("DELETE /api/admin/posts/{id} and its images", () => {
  it("keeps the post's images without deleteImages: they become unused", async () => {
    const image = await newImage();
    const post = await createPost({ headerImage: image.url });
    expect((await admin.delete(`/api/admin/posts/${post.id}`)).status).toBe(204);
    expect(await unusedIds()).toContain(image.id);
    expect((await fetch(server.url + image.url)).status).toBe(200);
  });

  it("with deleteImages=1 deletes the images only that post used and keeps those another post uses", async () => {
    const own = await newImage();
    const ownInline = await newImage();
    const shared = await newImage();
    const post = await createPost({
      headerImage: own.url,
      content: `![a](${ownInline.url})\n\n![b](${shared.url})`,
    });
    const other = await createPost({ content: `![b](${shared.variants[0]!.url})` });
    const deleted = await admin.delete(`/api/admin/posts/${post.id}?deleteImages=1`);
    expect(deleted.status, deleted.text).toBe(204);
    expect((await fetch(server.url + own.url)).status).toBe(404);
    expect((await fetch(server.url + ownInline.url)).status).toBe(404);
    expect((await fetch(server.url + shared.url)).status).toBe(200);
    expect(await referencesOf(other.id)).toEqual([shared.id]);
    expect((await admin.get(`/api/admin/posts/${post.id}`)).status).toBe(404);
  });

  it("answers 404 for an unknown post and 400 for a bad deleteImages", async () => {
    const missing = await admin.delete(`/api/admin/posts/00000000-0000-4000-8000-000000000000?deleteImages=1`);
    expect(missing.status).toBe(404);
    const post = await createPost({});
    expect((await admin.delete(`/api/admin/posts/${post.id}?deleteImages=yes`)).status).toBe(400);
    expect((await admin.delete(`/api/admin/posts/${post.id}?deleteImages=0`)).status).toBe(204);
  });
});

describe("access", () => {
  it("answers 401 without a session", async () => {
    const visitor = new ApiClient(server.url);
    expect((await visitor.get("/api/admin/images?unused=1")).status).toBe(401);
    expect((await visitor.delete(`/api/admin/images/${"ef".repeat(32)}`)).status).toBe(401);
  });

  it("refuses a cross-origin delete with 403 and keeps the image", async () => {
    const image = await newImage();
    const refused = await admin.delete(`/api/admin/images/${image.id}`, { Origin: "https://evil.example" });
    expect(refused.status).toBe(403);
    const fetchSite = await admin.delete(`/api/admin/images/${image.id}`, { "Sec-Fetch-Site": "cross-site" });
    expect(fetchSite.status).toBe(403);
    expect(await unusedIds()).toContain(image.id);
  });

  it("answers 405 to other methods", async () => {
    expect((await admin.post("/api/admin/images", {})).status).toBe(405);
    expect((await admin.get(`/api/admin/images/${"ef".repeat(32)}`)).status).toBe(405);
  });
});

describe("images in a post's body (docs/product/contract.md#images-in-a-posts-body)", () => {
  it("the article shows an upload with srcset, width and height from its stored size, its title as a figcaption; the preview is the same HTML", async () => {
    const wide = await newImage(700);
    const small = await newImage(400);
    const content = `Intro.\n\n![A wide one](${wide.url} "Seen from <the> hill")\n\n![A small one](${small.url})`;
    const post = await createPost({ content });
    const page = await fetch(`${server.url}/blog/${post.slug}`);
    const html = await page.text();
    expect(page.status).toBe(200);
    const srcset = wide.variants.map((v: { url: string; width: number }) => `${v.url} ${v.width}w`).join(", ");
    expect(html).toContain(
      `<figure><img src="${wide.url}" alt="A wide one" srcset="${srcset}" sizes="(min-width: 768px) 768px, 100vw" width="700" height="300" decoding="async"><figcaption>Seen from &#x3C;the> hill</figcaption></figure>`,
    );
    expect(html).toMatch(
      new RegExp(
        `<img src="${small.url}" alt="A small one" srcset="[^"]+" sizes="[^"]+" width="400" height="300" loading="lazy" decoding="async">`,
      ),
    );
    const preview = await admin.post("/api/admin/preview", { content });
    expect(preview.status).toBe(200);
    expect(html).toContain((preview.json as { html: string }).html);
  });
});
