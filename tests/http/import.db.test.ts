import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ImportReport } from "~/lib/import";
import { BODY_LIMITS } from "~/server/platform/http.server";
import { bulkPost, wxrFile, type WxrAttachment, type WxrPost } from "../../scripts/lib/exports.mjs";
import { createTestDatabase, TEST_BACKEND } from "../support/backend";
import { ApiClient, startServer, TEST_TOTP_KEY, type TestServer } from "../support/server";

/**
 * Importing from WordPress and Ghost over HTTP (ADR 074) on the built server:
 * a realistic WordPress export (WXR) becomes posts in their states, with
 * Markdown bodies, images fetched from the old site (a loopback server here,
 * OUTBOUND_ALLOW_PRIVATE=true) and stored as uploads, and a 301 in one hop
 * from each old address; the same file again adds nothing and fetches
 * nothing; a Ghost export's posts, tag and addresses; the refusals (no file,
 * not an export, a document type, broken XML, too large, a stranger, a
 * second import while one runs); a body too long to keep; and
 * `npm run admin -- import FILE`.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const CLI = path.join(ROOT, "build/server/cli.js");
const CAT_PATH = "/wp-content/uploads/cat.jpg";

let server: TestServer;
let admin: ApiClient;
/** The old site: serves one JPEG at CAT_PATH, 404 elsewhere, and records every request's URL. */
let oldSite: http.Server;
let origin: string;
const oldSiteRequests: string[] = [];
let catJpeg: Buffer;

beforeAll(async () => {
  catJpeg = await sharp({ create: { width: 48, height: 32, channels: 3, background: { r: 190, g: 120, b: 40 } } })
    .jpeg()
    .toBuffer();
  oldSite = http.createServer((req, res) => {
    oldSiteRequests.push(req.url ?? "");
    if (new URL(req.url ?? "/", "http://old.invalid").pathname === CAT_PATH) {
      res.writeHead(200, { "Content-Type": "image/jpeg", "Content-Length": catJpeg.length });
      res.end(catJpeg);
    } else {
      res.writeHead(404, { "Content-Type": "text/plain" });
      res.end("Not found");
    }
  });
  await new Promise<void>((resolve) => oldSite.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(oldSite.address() as AddressInfo).port}`;
  server = await startServer({ OUTBOUND_ALLOW_PRIVATE: "true" });
  admin = new ApiClient(server.url);
  await admin.signIn();
});
afterAll(async () => {
  await server?.stop();
  oldSite?.closeAllConnections();
  await new Promise((resolve) => oldSite?.close(resolve));
});

/** POSTs a file (and optionally siteUrl) as the multipart form the Import screen sends. */
async function upload(
  content: string | Buffer,
  {
    fileName = "export.xml",
    siteUrl,
    cookie = admin.cookie,
  }: { fileName?: string; siteUrl?: string; cookie?: string } = {},
): Promise<{ status: number; json: { id?: string; error?: string } }> {
  const form = new FormData();
  form.append("file", new Blob([typeof content === "string" ? content : new Uint8Array(content)]), fileName);
  if (siteUrl !== undefined) form.append("siteUrl", siteUrl);
  const response = await fetch(`${server.url}/api/admin/import`, {
    method: "POST",
    body: form,
    headers: cookie ? { Cookie: cookie } : {},
  });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as { id?: string; error?: string }) : {} };
}

/** The import's report once it is no longer running; fails after `timeoutMs`. */
async function finished(id: string, timeoutMs = 60_000): Promise<ImportReport> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await admin.get(`/api/admin/import/${id}`);
    expect(result.status, result.text).toBe(200);
    const report = result.json as ImportReport;
    if (report.status !== "running") return report;
    if (Date.now() > deadline) throw new Error(`import ${id} still running after ${timeoutMs} ms: ${result.text}`);
    await sleep(100);
  }
}

/** Uploads a file and waits for its import to end. */
async function imported(content: string, options?: Parameters<typeof upload>[1]): Promise<ImportReport> {
  const started = await upload(content, options);
  expect(started.status, JSON.stringify(started.json)).toBe(202);
  expect(started.json.id).toMatch(/^[\da-f-]{36}$/);
  return finished(started.json.id!);
}

interface ListedPost {
  id: string;
  slug: string;
}
interface FullPost extends ListedPost {
  title: string;
  excerpt: string;
  content: string;
  category: string;
  author: string;
  published: boolean;
  publishDate: string;
  headerImage: string | null;
  headerImageAlt: string | null;
}

async function allPosts(): Promise<ListedPost[]> {
  const result = await admin.get("/api/admin/posts?limit=100");
  expect(result.status).toBe(200);
  return result.json as ListedPost[];
}

async function postBySlug(slug: string): Promise<FullPost> {
  const listed = (await allPosts()).find((post) => post.slug === slug);
  expect(listed, `no post ${slug}`).toBeDefined();
  const result = await admin.get(`/api/admin/posts/${listed!.id}`);
  expect(result.status).toBe(200);
  return result.json as FullPost;
}

const get = (pathname: string) => fetch(server.url + pathname, { redirect: "manual" });

/** A 301 from `from` to `to`, whose target is no redirect itself (one hop). */
async function expectRedirect(from: string, to: string, targetStatus?: number) {
  const response = await get(from);
  await response.body?.cancel();
  expect(response.status, from).toBe(301);
  expect(response.headers.get("location"), from).toBe(to);
  const target = await get(to);
  await target.body?.cancel();
  expect([301, 302, 307, 308], `${to} redirects again`).not.toContain(target.status);
  if (targetStatus !== undefined) expect(target.status, to).toBe(targetStatus);
}

/** Any HTML tag left in Markdown (an escaped `\<` is text). */
const RAW_TAG = /(?<!\\)<\/?[a-z][\da-z-]*[\s/>]/i;

/** The realistic WordPress export: every state, a page, images found and not, a category, a featured image. */
function realisticPosts(): { posts: WxrPost[]; attachments: WxrAttachment[] } {
  const posts: WxrPost[] = [
    {
      id: 101,
      title: "Hello from WordPress",
      slug: "hello-wordpress",
      excerpt: "The first post, imported",
      dateGmt: "2021-03-04 05:06:07",
      category: { name: "News", nicename: "news" },
      thumbnailId: 900,
      html: [
        "<!-- wp:paragraph -->",
        '<p>Hello, <strong>bold</strong> world and <a href="https://example.com/x">a link</a>.</p>',
        "<!-- /wp:paragraph -->",
        "<table><thead><tr><th>Plan</th><th>Price</th></tr></thead><tbody><tr><td>Basic</td><td>$5</td></tr></tbody></table>",
        `<figure class="wp-block-image size-large"><img src="${CAT_PATH}" alt="A cat" class="wp-image-900"/><figcaption>Our cat</figcaption></figure>`,
        '<p>[gallery ids="900,901"]</p>',
        '<div class="wp-block-group"><span style="color:red">Kept as text</span></div>',
      ].join("\n"),
    },
    { id: 102, title: "Still a draft", slug: "still-a-draft", status: "draft", html: "<p>Not yet</p>" },
    {
      id: 103,
      title: "Coming later",
      slug: "coming-later",
      status: "future",
      dateGmt: "2031-06-01 08:00:00",
      html: "<p>Scheduled</p>",
    },
    { id: 104, title: "Private thoughts", slug: "private-thoughts", status: "private", html: "<p>Mine</p>" },
    { id: 105, title: "About the old site", slug: "about-old", type: "page", html: "<p>A page</p>" },
    {
      id: 106,
      title: "Broken image",
      slug: "broken-image",
      html: '<p>Before</p><p><img src="/wp-content/uploads/missing.jpg" alt="Gone"></p>',
    },
  ];
  return { posts, attachments: [{ id: 900, url: `${origin}${CAT_PATH}`, alt: "A cat on a mat" }] };
}

const realisticWxr = () => {
  const { posts, attachments } = realisticPosts();
  return wxrFile(origin, posts, attachments);
};

describe("a WordPress export", () => {
  it("becomes posts with Markdown bodies, stored images and one-hop redirects from every old address", async () => {
    const report = await imported(realisticWxr());
    expect(report).toMatchObject({
      status: "done",
      kind: "wordpress",
      fileName: "export.xml",
      total: 6,
      processed: 6,
      created: 5,
      skipped: 1,
      redirects: 8,
      error: null,
    });
    expect(report.images.failed).toBe(1);
    expect(report.images.fetched).toBeGreaterThanOrEqual(1);
    expect(report.finishedAt).not.toBeNull();
    const problems = report.problems.join("\n");
    expect(problems).toMatch(/“Hello from WordPress”: shortcodes kept as text.*\[gallery\]/);
    expect(problems).toMatch(
      /“Broken image”: the image http:\/\/127\.0\.0\.1:\d+\/wp-content\/uploads\/missing\.jpg .*404/,
    );
    expect(problems).toMatch(/“About the old site” was not imported: a WordPress page/);

    const slugs = (await allPosts()).map((post) => post.slug).sort();
    expect(slugs).toEqual(["broken-image", "coming-later", "hello-wordpress", "private-thoughts", "still-a-draft"]);

    const hello = await postBySlug("hello-wordpress");
    expect(hello).toMatchObject({
      title: "Hello from WordPress",
      excerpt: "The first post, imported",
      category: "News",
      author: "Olivia Owner",
      published: true,
      publishDate: "2021-03-04T05:06:07.000Z",
      headerImageAlt: "A cat on a mat",
    });
    expect(hello.content).toContain("Hello, **bold** world and [a link](https://example.com/x).");
    expect(hello.content).toContain("| Plan | Price |\n| --- | --- |\n| Basic | $5 |");
    expect(hello.content).toContain("Kept as text");
    expect(hello.content).toContain('\\[gallery ids="900,901"\\]');
    expect(hello.content).not.toMatch(RAW_TAG);
    expect(hello.content).not.toContain("127.0.0.1");
    const image = /!\[A cat\]\((\/images\/\S+) "Our cat"\)/.exec(hello.content);
    expect(image, hello.content).not.toBeNull();
    const stored = await get(image![1]!);
    expect(stored.status).toBe(200);
    expect(stored.headers.get("content-type")).toMatch(/^image\//);
    const metadata = await sharp(Buffer.from(await stored.arrayBuffer())).metadata();
    expect([metadata.width, metadata.height]).toEqual([48, 32]);
    expect(hello.headerImage).toMatch(/^\/images\//);
    const header = await get(hello.headerImage!);
    await header.body?.cancel();
    expect(header.status).toBe(200);
    expect(oldSiteRequests.filter((url) => url === CAT_PATH).length).toBeGreaterThanOrEqual(1);

    expect(await postBySlug("still-a-draft")).toMatchObject({ published: false, author: "Olivia Owner" });
    expect(await postBySlug("coming-later")).toMatchObject({
      published: true,
      publishDate: "2031-06-01T08:00:00.000Z",
    });
    expect(await postBySlug("private-thoughts")).toMatchObject({ published: false });
    const broken = await postBySlug("broken-image");
    expect(broken.published).toBe(true);
    expect(broken.content).toContain(`![Gone](${origin}/wp-content/uploads/missing.jpg)`);
    expect(broken.headerImage).toBeNull();

    // Every old address, in one hop; the public ones land on a page that answers.
    await expectRedirect("/hello-wordpress", "/blog/hello-wordpress", 200);
    await expectRedirect("/hello-wordpress/", "/blog/hello-wordpress", 200);
    await expectRedirect("/?p=101", "/blog/hello-wordpress", 200);
    await expectRedirect("/?p=102", "/blog/still-a-draft");
    await expectRedirect("/?p=103", "/blog/coming-later");
    await expectRedirect("/?p=104", "/blog/private-thoughts");
    await expectRedirect("/broken-image/", "/blog/broken-image", 200);
    await expectRedirect("/?p=106", "/blog/broken-image", 200);
    await expectRedirect("/category/news/", "/blog/category/news", 200);
    await expectRedirect("/category/news", "/blog/category/news", 200);
    // The page was not imported: nothing leads from its id; and `/` is never redirected.
    expect((await get("/?p=105")).status).toBe(200);
    expect((await get("/")).status).toBe(200);

    const listed = await admin.get("/api/admin/redirects?limit=100");
    expect(listed.status).toBe(200);
    const redirects = listed.json as Array<{ from: string; to: string; status: number; imported: boolean }>;
    expect(redirects.every((redirect) => redirect.imported && redirect.status === 301)).toBe(true);
    expect(redirects.map((redirect) => `${redirect.from} -> ${redirect.to}`).sort()).toEqual(
      [
        "/?p=101 -> /blog/hello-wordpress",
        "/?p=102 -> /blog/still-a-draft",
        "/?p=103 -> /blog/coming-later",
        "/?p=104 -> /blog/private-thoughts",
        "/?p=106 -> /blog/broken-image",
        "/broken-image -> /blog/broken-image",
        "/category/news -> /blog/category/news",
        "/hello-wordpress -> /blog/hello-wordpress",
      ].sort(),
    );

    const list = await admin.get("/api/admin/import");
    expect(list.status).toBe(200);
    expect((list.json as ImportReport[]).map((item) => item.id)).toContain(report.id);
  });

  it("imported again, creates nothing and fetches no image", async () => {
    const posts = (await allPosts()).length;
    const requests = oldSiteRequests.length;
    const report = await imported(realisticWxr());
    expect(report).toMatchObject({ status: "done", total: 6, processed: 6, created: 0, skipped: 6, redirects: 0 });
    expect(report.images).toEqual({ fetched: 0, failed: 0 });
    expect(report.problems[0]).toBe("5 posts were imported before and were left as they are.");
    expect((await allPosts()).length).toBe(posts);
    expect(oldSiteRequests.length).toBe(requests);
  });

  it("skips a post whose body is too long to keep, and imports the rest", async () => {
    const huge: WxrPost = {
      id: 201,
      title: "Far too long",
      slug: "far-too-long",
      html: `<p>${"All work and no play. ".repeat(100_000)}</p>`,
    };
    expect(huge.html!.length).toBeGreaterThan(2_000_000);
    const report = await imported(wxrFile(origin, [huge, bulkPost(202, 2000)]));
    expect(report).toMatchObject({ status: "done", total: 2, created: 1, skipped: 1 });
    expect(report.problems).toEqual(["“Far too long” was not imported: its body is longer than 1,000,000 characters"]);
    const slugs = (await allPosts()).map((post) => post.slug);
    expect(slugs).toContain("bulk-post-202");
    expect(slugs).not.toContain("far-too-long");
  });

  // turndown-plugin-gfm alone keeps a table without a heading row (what WordPress's table block
  // writes unless "Header section" is on) as raw HTML; its first row is the heading instead.
  it("makes a table without a heading row Markdown, not HTML", async () => {
    const table: WxrPost = {
      id: 301,
      title: "Block table",
      slug: "block-table",
      html: '<figure class="wp-block-table"><table><tbody><tr><td>Plan</td><td>Price</td></tr><tr><td>Basic</td><td>$5</td></tr></tbody></table></figure>',
    };
    const report = await imported(wxrFile(origin, [table]));
    expect(report).toMatchObject({ status: "done", created: 1 });
    const post = await postBySlug("block-table");
    expect(post.content).toContain("| Basic | $5 |");
    expect(post.content).not.toMatch(RAW_TAG);
  });
});

describe("a Ghost export", () => {
  it("becomes posts with their primary tag as category, images fetched and old addresses redirected", async () => {
    const ghost = {
      db: [
        {
          meta: { exported_on: 1_700_000_000_000, version: "5.75.0" },
          data: {
            posts: [
              {
                id: "g1",
                title: "Ghost tagged",
                slug: "ghost-tagged",
                html: `<p>From <em>Ghost</em></p><img src="__GHOST_URL__${CAT_PATH}?from=ghost" alt="Ghost cat">`,
                feature_image: null,
                type: "post",
                status: "published",
                published_at: "2023-01-15T10:00:00.000Z",
                custom_excerpt: "Tagged in Ghost",
                author_id: "u1",
              },
              {
                id: "g2",
                title: "Ghost plain",
                slug: "ghost-plain",
                html: "<p>No tag here</p>",
                feature_image: null,
                type: "post",
                status: "published",
                published_at: "2023-02-01T00:00:00.000Z",
                custom_excerpt: null,
                author_id: "u1",
              },
            ],
            tags: [{ id: "t1", name: "Recipes", slug: "recipes", visibility: "public" }],
            posts_tags: [{ id: "pt1", post_id: "g1", tag_id: "t1", sort_order: 0 }],
            users: [{ id: "u1", name: "Ada Lovelace", slug: "ada" }],
            posts_authors: [
              { id: "pa1", post_id: "g1", author_id: "u1", sort_order: 0 },
              { id: "pa2", post_id: "g2", author_id: "u1", sort_order: 0 },
            ],
          },
        },
      ],
    };
    const requests = oldSiteRequests.length;
    const report = await imported(JSON.stringify(ghost), { fileName: "ghost.json", siteUrl: `${origin}/` });
    expect(report).toMatchObject({ status: "done", kind: "ghost", created: 2, skipped: 0, error: null });
    expect(report.images).toEqual({ fetched: 1, failed: 0 });
    expect(oldSiteRequests.slice(requests)).toEqual([`${CAT_PATH}?from=ghost`]);

    const tagged = await postBySlug("ghost-tagged");
    expect(tagged).toMatchObject({
      title: "Ghost tagged",
      excerpt: "Tagged in Ghost",
      category: "Recipes",
      author: "Ada Lovelace",
      published: true,
      publishDate: "2023-01-15T10:00:00.000Z",
    });
    expect(tagged.content).toMatch(/^From _Ghost_\n\n!\[Ghost cat\]\(\/images\/\S+\)$/);
    expect(await postBySlug("ghost-plain")).toMatchObject({ category: "", excerpt: "No tag here" });

    await expectRedirect("/ghost-tagged/", "/blog/ghost-tagged", 200);
    await expectRedirect("/ghost-plain", "/blog/ghost-plain", 200);
    await expectRedirect("/tag/recipes/", "/blog/category/recipes", 200);
  });
});

describe("npm run admin -- import FILE", () => {
  it("imports a file into the site's database and prints what it created", async () => {
    const database = await createTestDatabase();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ojai-import-"));
    try {
      const file = path.join(dir, "export.xml");
      fs.writeFileSync(file, realisticWxr());
      const run = (args: string[]) =>
        new Promise<{ code: number | null; output: string }>((resolve, reject) => {
          const child = spawn(process.execPath, [CLI, ...args], {
            cwd: ROOT,
            env: {
              PATH: process.env.PATH,
              DATABASE_URL: database.url,
              LOG_LEVEL: "silent",
              OUTBOUND_ALLOW_PRIVATE: "true",
              ...(TEST_BACKEND === "postgres" ? { TOTP_ENCRYPTION_KEY: TEST_TOTP_KEY } : {}),
            },
            stdio: ["ignore", "pipe", "pipe"],
          });
          let output = "";
          child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
          child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
          child.once("error", reject);
          child.once("exit", (code) => resolve({ code, output }));
        });
      const first = await run(["import", file]);
      expect(first.output).toMatch(/6 of 6 posts: 5 created, 1 skipped, 8 redirects, \d+ images fetched, 1 failed/);
      expect(first.output).toMatch(/- “Broken image”: the image .*missing\.jpg.*404/);
      expect(first.code, first.output).toBe(0);
      const again = await run(["import", file]);
      expect(again.output).toMatch(/6 of 6 posts: 0 created, 6 skipped/);
      expect(again.code, again.output).toBe(0);
      const missing = await run(["import", path.join(dir, "notes.txt")]);
      expect(missing.code).not.toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await database.drop();
    }
  });
});

describe("refusals", () => {
  it("answers 400 without a file, for a file that is no export, and for a bad siteUrl", async () => {
    const form = new FormData();
    form.append("siteUrl", origin);
    const none = await fetch(`${server.url}/api/admin/import`, {
      method: "POST",
      body: form,
      headers: { Cookie: admin.cookie },
    });
    expect(none.status).toBe(400);
    expect(((await none.json()) as { error: string }).error).toMatch(/No file/);

    const text = await upload("Dear diary, today I moved my blog.", { fileName: "notes.txt" });
    expect(text.status).toBe(400);
    expect(text.json.error).toMatch(/not a WordPress or Ghost export/);

    const badSite = await upload(realisticWxr(), { siteUrl: "ftp://old.example.com" });
    expect(badSite.status).toBe(400);
    expect(badSite.json.error).toMatch(/https:\/\/ or http:\/\//);

    const json = await admin.post("/api/admin/import", { file: "x" });
    expect(json.status).toBe(400);
    // None of them left an import behind, nor holds the one place.
    const list = await admin.get("/api/admin/import?limit=100");
    expect((list.json as ImportReport[]).every((item) => item.status !== "running")).toBe(true);
  });

  it("reads no document type: a billion-laughs file is accepted, then its import fails saying why", async () => {
    const laughs = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE rss [
  <!ENTITY a "${"a".repeat(1000)}">
  <!ENTITY b "${"&a;".repeat(100)}">
  <!ENTITY c "${"&b;".repeat(100)}">
  <!ENTITY d "${"&c;".repeat(100)}">
]>
${realisticWxr()
  .replace(/^<\?xml[^>]*>\s*/, "")
  .replace("<title>Old site</title>", "<title>&d;</title>")}`;
    const posts = (await allPosts()).length;
    const started = await upload(laughs);
    // The upload is only sniffed (it starts with `<`): the reader refuses it.
    expect(started.status).toBe(202);
    const report = await finished(started.json.id!);
    expect(report).toMatchObject({ status: "failed", kind: "wordpress", created: 0, processed: 0 });
    expect(report.error).toMatch(/document type/);
    expect((await allPosts()).length).toBe(posts);
  });

  it("fails an import of broken XML with the line where it broke", async () => {
    const broken = realisticWxr().replace("</wp:post_name>", "</wp:post_nam>");
    const report = await imported(broken);
    expect(report).toMatchObject({ status: "failed", created: 0 });
    expect(report.error).toMatch(/^The file is not well-formed XML \(line \d+\): .+\. Export it again from WordPress$/);

    const notWxr = await imported('<?xml version="1.0"?><html><body>Hello</body></html>');
    expect(notWxr).toMatchObject({ status: "failed", created: 0 });
    expect(notWxr.error).toMatch(/not a WordPress export/);

    const notGhost = await imported(JSON.stringify({ hello: "world" }), { fileName: "x.json" });
    expect(notGhost).toMatchObject({ status: "failed", kind: "ghost", created: 0 });
    expect(notGhost.error).toMatch(/not a Ghost export/);
  });

  it("answers 401 to a stranger", async () => {
    const stranger = await upload(realisticWxr(), { cookie: "" });
    expect(stranger.status).toBe(401);
    expect((await new ApiClient(server.url).get("/api/admin/import")).status).toBe(401);
  });

  it("answers 413 to a declared length over the limit before reading the body", async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(`${server.url}/api/admin/import`, {
        method: "POST",
        headers: {
          Cookie: admin.cookie,
          "Content-Type": "multipart/form-data; boundary=xyz",
          "Content-Length": String(BODY_LIMITS.import + 1),
        },
      });
      request.on("response", (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => {
          resolve({ status: response.statusCode ?? 0, body });
          request.destroy();
        });
      });
      request.on("error", reject);
      // Only the headers and the form's first line go out; the 80 MB never do.
      request.write("--xyz\r\n");
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatch(/too large/);
  });

  it("answers 409 to a second import while one is running", async () => {
    const posts = Array.from({ length: 1500 }, (_, i) => bulkPost(10_000 + i, 1000));
    const first = await upload(wxrFile("https://big.example.com", posts), { fileName: "big.xml" });
    expect(first.status).toBe(202);
    const second = await upload(realisticWxr());
    expect(second.status).toBe(409);
    expect(second.json.error).toMatch(/An import is running/);
    // The first goes on (this file's server stops with it), and the refusal cost the process nothing.
    expect(((await admin.get(`/api/admin/import/${first.json.id!}`)).json as ImportReport).status).toBe("running");
    expect(server.stderr()).toBe("");
  });
});
