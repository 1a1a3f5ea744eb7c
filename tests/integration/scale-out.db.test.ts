import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BLOG_PAGE_SIZE } from "~/lib/blog-pages";
import { createTestDatabase, TEST_BACKEND } from "../support/backend";
import { postAllAtOnce } from "../support/parallel";
import { ApiClient, startServer, TEST_ADMIN, type TestServer } from "../support/server";

/**
 * Several app processes on one database (docs/product/contract.md#scale-out) behave as one site.
 * Nothing a request needs may live in one process's memory or disk.
 * Runs on the backend under test (TEST_DATABASE); on PostgreSQL this is the
 * load-balanced deployment.
 */
describe(`two app processes on one ${TEST_BACKEND} database`, () => {
  let a: TestServer;
  let b: TestServer;
  let dropDatabase: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    const url = database.url;
    dropDatabase = database.drop;
    // Both start at the same moment, as behind a load balancer: migrations,
    // sample posts and the first administrator must not trip over each other.
    [a, b] = await Promise.all([
      startServer({ DATABASE_URL: url, SEED_SAMPLE_POSTS: "true" }),
      startServer({ DATABASE_URL: url, SEED_SAMPLE_POSTS: "true" }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await dropDatabase?.();
  });

  it("both started on the same data: the sample posts once, one administrator", async () => {
    const [fromA, fromB] = await Promise.all([
      new ApiClient(a.url).get("/api/posts"),
      new ApiClient(b.url).get("/api/posts"),
    ]);
    expect(fromA.status).toBe(200);
    expect(fromA.json.length).toBeGreaterThan(0);
    expect(fromB.json).toEqual(fromA.json);
    expect(new Set(fromA.json.map((p: { slug: string }) => p.slug)).size).toBe(fromA.json.length);
    await new ApiClient(a.url).signIn();
    await new ApiClient(b.url).signIn();
  });

  it("a post saved through one is served by the other, and so are its changes and its deletion", async () => {
    // B has the list and the missing article in its page cache before A writes.
    const visitor = new ApiClient(b.url);
    const before = await visitor.get("/api/posts");
    expect((await visitor.get("/api/posts")).headers.get("x-cache")).toBe("hit");
    expect((await visitor.get("/api/posts/written-on-a")).status).toBe(404);

    const admin = new ApiClient(a.url);
    await admin.signIn();
    const created = await admin.post("/api/admin/posts", {
      title: "Written on A",
      slug: "written-on-a",
      excerpt: "Saved through the first process",
      content: "Served by **the second**.",
      category: "Operations",
      readTime: "1 min read",
      published: true,
      publishDate: new Date(Date.now() - 60_000).toISOString(),
      headerImage: null,
    });
    expect(created.status).toBe(201);

    const list = await visitor.get("/api/posts");
    expect(list.json.length).toBe(before.json.length + 1);
    expect(list.json[0].slug).toBe("written-on-a");
    const fetched = await visitor.get("/api/posts/written-on-a");
    expect(fetched.status).toBe(200);
    expect(fetched.json.title).toBe("Written on A");
    const page = await visitor.get("/blog/written-on-a");
    expect(page.status).toBe(200);
    expect(page.text).toContain("<strong>the second</strong>");

    const editor = new ApiClient(b.url);
    await editor.signIn();
    const updated = await editor.put(`/api/admin/posts/${created.json.id}`, { ...created.json, title: "Edited on B" });
    expect(updated.status).toBe(200);
    expect((await new ApiClient(a.url).get("/api/posts/written-on-a")).json.title).toBe("Edited on B");
    expect((await visitor.get("/api/posts/written-on-a")).json.title).toBe("Edited on B");

    expect((await admin.delete(`/api/admin/posts/${created.json.id}`)).status).toBe(204);
    expect((await visitor.get("/api/posts/written-on-a")).status).toBe(404);
  });

  it("the blog rendered by one follows the other's writes: its pages and an article's page", async () => {
    // A session cookie keeps the page cache out: B renders every answer from the list's shape it keeps.
    const onB = (path: string) => fetch(b.url + path, { headers: { Cookie: "session=none" } });
    const newest = await onB("/api/posts?limit=1");
    const total = Number(newest.headers.get("x-total-count"));
    const { slug } = ((await newest.json()) as Array<{ slug: string }>)[0]!;
    const pages = Math.ceil(total / BLOG_PAGE_SIZE);
    const backLink = async () =>
      /href="(\/blog[^"]*)"[^>]*>(?:<span[^>]*>[^<]*<\/span>)?\s*Back to articles/.exec(
        await (await onB(`/blog/${slug}`)).text(),
      )?.[1];
    expect(await backLink()).toBe("/blog");
    expect((await onB(`/blog?page=${pages + 1}`)).status).toBe(404);

    // A publishes a page's worth of newer posts.
    const admin = new ApiClient(a.url);
    await admin.signIn();
    const ids: string[] = [];
    for (let i = 0; i < BLOG_PAGE_SIZE; i++) {
      const created = await admin.post("/api/admin/posts", {
        title: `Newer ${i}`,
        slug: `newer-${i}`,
        excerpt: "Pushes the others down the list",
        content: "A page's worth.",
        published: true,
        publishDate: new Date(Date.now() - 1000 * (i + 1)).toISOString(),
      });
      expect(created.status).toBe(201);
      ids.push(created.json.id);
    }
    expect(Number((await onB("/api/posts?limit=1")).headers.get("x-total-count"))).toBe(total + BLOG_PAGE_SIZE);
    expect(await backLink()).toBe("/blog?page=2");
    expect((await onB(`/blog?page=${pages + 1}`)).status).toBe(200);

    for (const id of ids) expect((await admin.delete(`/api/admin/posts/${id}`)).status).toBe(204);
    expect(await backLink()).toBe("/blog");
    expect((await onB(`/blog?page=${pages + 1}`)).status).toBe(404);
  });

  it("settings saved through one show on the other's next request, though it had the pages cached", async () => {
    const visitor = new ApiClient(b.url);
    for (const path of ["/about", "/rss.xml"]) {
      await visitor.get(path);
      // The entry is stored just after the answer that fills it, so the next request can still miss.
      await expect.poll(async () => (await visitor.get(path)).headers.get("x-cache"), { message: path }).toBe("hit");
    }
    const admin = new ApiClient(a.url);
    await admin.signIn();
    const saved = await admin.put("/api/admin/settings", {
      companyName: "Saved Through A",
      contactPhone: "+1 805 555 0177",
      socialUrls: { facebook: "https://www.facebook.com/saved.through.a" },
    });
    expect(saved.status).toBe(200);
    const about = await visitor.get("/about");
    expect(about.headers.get("x-cache")).not.toBe("hit");
    expect(about.text).toContain("+1 805 555 0177");
    expect(about.text).toContain("About | Saved Through A");
    expect(about.text).toContain('href="https://www.facebook.com/saved.through.a"');
    expect((await visitor.get("/rss.xml")).text).toContain("<title>Saved Through A Blog</title>");
  });

  it("a session from one is valid on the other, and signing out on one ends it on both", async () => {
    const onA = new ApiClient(a.url);
    await onA.signIn();
    const onB = new ApiClient(b.url);
    onB.cookie = onA.cookie;
    expect((await onB.get("/api/auth/me")).json).toEqual({ user: { email: TEST_ADMIN.email } });
    expect((await onB.get("/api/admin/posts")).status).toBe(200);

    const cookie = onA.cookie;
    expect((await onB.post("/api/auth/logout")).status).toBe(204);
    const replay = new ApiClient(a.url);
    replay.cookie = cookie;
    expect((await replay.get("/api/admin/posts")).status).toBe(401);
  });

  it("an image uploaded to one is served by the other, in every size", async () => {
    const admin = new ApiClient(a.url);
    await admin.signIn();
    const png = await sharp({ create: { width: 800, height: 400, channels: 3, background: "#2f7a4a" } })
      .png()
      .toBuffer();
    const uploaded = await admin.uploadPng(png);
    expect(uploaded.variants.length).toBeGreaterThan(0);
    for (const url of [uploaded.url, ...uploaded.variants.map((v) => v.url)]) {
      const fromB = await fetch(b.url + url);
      expect(fromB.status).toBe(200);
      expect(fromB.headers.get("content-type")).toMatch(/^image\//);
      expect((await fromB.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
  });

  it("sign-in throttling counts failures across both processes", async () => {
    const email = TEST_ADMIN.email;
    // Distinct addresses, so only the per-account counter can add up to 5.
    const attempt = (server: TestServer, password: string, n: number) =>
      new ApiClient(server.url).post("/api/auth/login", { email, password }, { "X-Forwarded-For": `203.0.113.${n}` });
    for (let i = 0; i < 5; i++) {
      expect((await attempt(i % 2 === 0 ? a : b, "wrong-password", i + 1)).status).toBe(401);
    }
    expect((await attempt(a, TEST_ADMIN.password, 50)).status).toBe(429);
    expect((await attempt(b, TEST_ADMIN.password, 51)).status).toBe(429);
  });

  const statuses = (answers: Array<{ status: number }>) => answers.map((answer) => answer.status).sort();
  const both = (i: number) => (i % 2 === 0 ? a : b);

  it("40 sign-ins at once through both processes: the limits hold in total, per account and per address", async () => {
    const perAccount = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        new ApiClient(both(i).url).post(
          "/api/auth/login",
          { email: "parallel@example.com", password: "wrong-password" },
          { "X-Forwarded-For": `198.18.10.${i + 1}` },
        ),
      ),
    );
    expect(statuses(perAccount)).toEqual([...Array<number>(5).fill(401), ...Array<number>(35).fill(429)]);

    const perAddress = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        new ApiClient(both(i).url).post(
          "/api/auth/login",
          { email: `spray-${i}@example.com`, password: "wrong-password" },
          { "X-Forwarded-For": "198.18.11.1" },
        ),
      ),
    );
    expect(statuses(perAddress)).toEqual([...Array<number>(5).fill(401), ...Array<number>(35).fill(429)]);
  });

  it("20 contact messages at once through both processes from one address: exactly 5 are accepted", async () => {
    const answers = await postAllAtOnce(
      Array.from({ length: 20 }, (_, i) => ({
        url: both(i).url,
        path: "/api/contact",
        body: {
          name: `Scaled ${i}`,
          email: "ada@example.com",
          preferredContact: "email",
          service: "research",
          message: "Sent through a load balancer.",
        },
        headers: { "X-Forwarded-For": "198.18.12.1" },
      })),
    );
    expect(statuses(answers)).toEqual([...Array<number>(5).fill(201), ...Array<number>(15).fill(429)]);
  });
});
