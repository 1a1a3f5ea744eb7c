import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_BACKEND } from "../support/backend";
import { ApiClient, cacheStored, startServer, type TestServer } from "../support/server";
import { searchText } from "~/content/search";
import { SEARCH_THROTTLE } from "~/server/posts/search.server";
import { headers as searchHeaders } from "~/routes/blog.search";
import { daysAgo } from "../support/days";

/**
 * /blog/search (docs/product/contract.md#search, ADR 042) against a real server on the backend
 * under test: the form alone without q, results linking to /blog/{slug} with
 * the words marked and the post's text escaped, only public posts, paging,
 * a bounded query (400) and page (404), the page cache sharing one entry
 * between spellings and dropping it when content changes, the search box on
 * /blog, and the slug "search" refused.
 */

const SITE = "https://www.example.test";
let server: TestServer;
let admin: ApiClient;

const base = { excerpt: "An excerpt", content: "Body of the post.", category: "News", published: true };

async function createPost(post: Record<string, unknown>) {
  const result = await admin.post("/api/admin/posts", { ...base, ...post });
  expect(result.status, result.text).toBe(201);
  return result.json as { id: string; slug: string };
}

/**
 * A GET over plain HTTP (the path sent as written), with the cache's X-Cache
 * header; `from` is the loopback address it comes from (another visitor).
 */
function get(path: string, from?: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const request = http.request(`${server.url}/`, { path, agent: false, localAddress: from }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    request.on("error", reject);
    request.end();
  });
}

/** The hrefs of the result titles, in order. */
const resultLinks = (body: string) => [...body.matchAll(/<h3[^>]*><a href="([^"]+)"/g)].map((match) => match[1]);

beforeAll(async () => {
  server = await startServer({ SITE_URL: SITE, LOG_LEVEL: "debug" });
  admin = new ApiClient(server.url);
  await admin.signIn();
  await createPost({
    title: "Migrating databases without downtime",
    slug: "migrating-databases",
    publishDate: daysAgo(3),
  });
  await createPost({
    title: "Weekly notes",
    slug: "weekly-notes",
    content: "This week: databases, coffee and <script>alert('x')</script> in a code sample.",
    publishDate: daysAgo(2),
  });
  await createPost({ title: "Databases draft", slug: "databases-draft", published: false });
  await createPost({ title: "Databases tomorrow", slug: "databases-tomorrow", publishDate: daysAgo(-1) });
  for (let i = 1; i <= 12; i++) {
    await createPost({ title: `Paging post ${i}`, slug: `paging-post-${i}`, publishDate: daysAgo(10 + i) });
  }
}, 120_000);
afterAll(() => server?.stop());

describe("/blog/search", () => {
  it("without q shows the form alone, labelled, in a search landmark", async () => {
    for (const path of ["/blog/search", "/blog/search?q=", "/blog/search?q=%20%20"]) {
      const { status, body } = await get(path);
      expect(status, path).toBe(200);
      expect(body).toContain('role="search"');
      expect(body).toMatch(/<label[^>]*for="blog-search-q"[^>]*>Search the blog<\/label>/);
      expect(body).toMatch(/<input[^>]*type="search"[^>]*name="q"/);
      expect(body).not.toContain("Results for");
      expect(body).toContain(`<link rel="canonical" href="${SITE}/blog/search"/>`);
    }
  });

  it("lists public matches, best first, each linking to /blog/{slug}, the words marked", async () => {
    const { status, body, headers } = await get("/blog/search?q=Databases");
    expect(status).toBe(200);
    expect(headers["cache-control"]).toContain("public");
    expect(resultLinks(body)).toEqual(["/blog/migrating-databases", "/blog/weekly-notes"]);
    expect(body).toContain("2 posts match.");
    expect(body).toMatch(/<mark[^>]*>databases<\/mark>/);
    // The query is shown back (as normalised) on the page, but not in its title or
    // description, and the canonical URL is the form's: one page to list (ADR 042).
    expect(body).toMatch(/<input[^>]*value="databases"/);
    expect(body).toContain("<title>Search results | ");
    expect(body).not.toMatch(/<title>[^<]*databases/);
    expect(body).not.toMatch(/<meta name="description" content="[^"]*databases/);
    expect(body).toContain(`<link rel="canonical" href="${SITE}/blog/search"/>`);
    expect(body).not.toContain('name="robots"');
  });

  it("escapes the posts' text: only its own <mark> is markup", async () => {
    const { body } = await get("/blog/search?q=coffee");
    expect(resultLinks(body)).toEqual(["/blog/weekly-notes"]);
    expect(body).not.toContain("<script>alert");
    // PostgreSQL's ts_headline leaves out what looks like an HTML tag; SQLite's snippet keeps it, as text.
    expect(body).toContain(TEST_BACKEND === "sqlite" ? "&lt;script&gt;alert" : "alert(&#x27;x&#x27;)");
  });

  it("says when nothing matches, and treats query syntax and punctuation as text", async () => {
    expect((await get("/blog/search?q=%00")).status).toBe(200);
    for (const q of ["zebra", "%22%29%28*%5E", "NEAR%28databases%29%20zebra", "zebra%00"]) {
      const { status, body } = await get(`/blog/search?q=${q}`);
      expect(status, q).toBe(200);
      expect(body).toMatch(/No posts match “[^”]*”\./);
      expect(resultLinks(body)).toEqual([]);
    }
  });

  it("pages ten results at a time; a page past the last or out of range is 404", async () => {
    const first = await get("/blog/search?q=paging");
    expect(resultLinks(first.body)).toHaveLength(10);
    expect(first.body).toContain("12 posts match. Page 1 of 2.");
    expect(first.body).toContain('href="/blog/search?q=paging&amp;page=2"');
    const second = await get("/blog/search?q=paging&page=2");
    expect(resultLinks(second.body)).toHaveLength(2);
    expect(second.body).toContain('href="/blog/search?q=paging"');
    for (const page of ["3", "0", "51", "x", "1.5"]) {
      expect((await get(`/blog/search?q=paging&page=${page}`)).status, page).toBe(404);
    }
  });

  it("refuses a query over 200 characters with a message (400), and searches one of 200", async () => {
    const long = await get(`/blog/search?q=${"a".repeat(201)}`);
    expect(long.status).toBe(400);
    expect(long.body).toContain("That search is too long. Search for at most 200 characters.");
    expect((await get(`/blog/search?q=${"a".repeat(200)}`)).status).toBe(200);
  });

  it("serves spellings of one query from one cache entry, until content changes", async () => {
    const first = await get("/blog/search?q=Migrating%20%20DATABASES");
    expect(first.status).toBe(200);
    await cacheStored(server, "/blog/search?q=migrating%20databases");
    const again = await get("/blog/search?q=migrating+databases&utm_source=x");
    expect(again.headers["x-cache"]).toBe("hit");
    expect(again.body).toBe(first.body);
    await createPost({ title: "Migrating again", slug: "migrating-again", publishDate: daysAgo(1) });
    const after = await get("/blog/search?q=migrating+databases");
    expect(after.headers["x-cache"]).not.toBe("hit");
    expect(resultLinks((await get("/blog/search?q=migrating")).body)).toContain("/blog/migrating-again");
  });
});

describe("the search box on /blog", () => {
  it("is a GET form to /blog/search above the articles", async () => {
    const { body } = await get("/blog");
    const form = /<form role="search"[^>]*>/.exec(body);
    expect(form?.[0]).toContain('action="/blog/search"');
    expect(form?.[0]).toContain('method="get"');
    expect(form!.index).toBeLessThan(body.indexOf('href="/blog/paging-post-1"'));
  });
});

describe('the slug "search"', () => {
  it("is refused on create and update with a message naming it", async () => {
    const created = await admin.post("/api/admin/posts", { ...base, title: "Search", slug: "search" });
    expect(created.status).toBe(400);
    expect(created.json.error).toContain('The slug "search"');
    const { id } = await createPost({ title: "Search tips", slug: "search-tips" });
    const updated = await admin.put(`/api/admin/posts/${id}`, { ...base, title: "Search tips", slug: "search" });
    expect(updated.status).toBe(400);
    expect(updated.json.error).toBe(
      'The slug "search" is taken by the blog\'s own /blog/search page; choose another slug',
    );
  });
});

describe("/blog/search from one address that searches without end (ADR 048)", () => {
  it("answers 429 with Retry-After on the page itself past the address's searches, while the site still answers it and others", async () => {
    const flooder = "127.0.0.7";
    // A results page someone else asked for first is a cache hit: no search, nothing counted.
    const cached = "/blog/search?q=weekly";
    expect((await get(cached, "127.0.0.8")).status).toBe(200);
    await cacheStored(server, cached);
    const flood = Array.from({ length: SEARCH_THROTTLE.points + 10 }, (_, i) => `/blog/search?q=flood${i}`);
    const answers: Array<Awaited<ReturnType<typeof get>>> = [];
    const browsing: number[] = [];
    // Four searches at a time from the one address, while another visitor browses.
    let searched = false;
    const searching = (async () => {
      for (let i = 0; i < flood.length; i += 4) {
        answers.push(...(await Promise.all(flood.slice(i, i + 4).map((path) => get(path, flooder)))));
      }
    })().finally(() => (searched = true));
    while (!searched) {
      browsing.push((await get("/blog", "127.0.0.9")).status, (await get(cached, "127.0.0.9")).status);
    }
    await searching;
    expect(browsing.every((status) => status === 200)).toBe(true);
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(SEARCH_THROTTLE.points);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);

    const refused = answers.find((answer) => answer.status === 429)!;
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(SEARCH_THROTTLE.durationSeconds);
    expect(refused.headers["cache-control"]).toBe("no-store");
    expect(refused.body).toMatch(new RegExp(`<p role="alert"[^>]*>${searchText.throttled}</p>`));
    expect(refused.body).toMatch(/<input[^>]*name="q"/);
    expect(resultLinks(refused.body)).toEqual([]);

    // The same address still gets pages and cached results; another address still searches.
    expect((await get("/blog", flooder)).status).toBe(200);
    const hit = await get(cached, flooder);
    expect([hit.status, hit.headers["x-cache"]]).toEqual([200, "hit"]);
    expect((await get("/blog/search?q=flood0+other", "127.0.0.10")).status).toBe(200);
    expect((await get("/blog/search?q=flood1+other", flooder)).status).toBe(429);
  });
});

describe("/blog/search when the searches are all taken", () => {
  it("a busy answer (503) says when to come back and is kept by no cache; an answer is public", () => {
    const args = (loaderHeaders: Headers) => ({ loaderHeaders }) as Parameters<typeof searchHeaders>[0];
    expect(searchHeaders(args(new Headers({ "Retry-After": "2" })))).toEqual({
      "Cache-Control": "no-store",
      "Retry-After": "2",
    });
    expect(searchHeaders(args(new Headers()))["Cache-Control"]).toContain("public");
  });
});
