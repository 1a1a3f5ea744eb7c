import { randomBytes } from "node:crypto";
import http from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routes from "~/routes";
import {
  cacheStored,
  cacheStoredLines,
  keepAliveAgent,
  startSqliteServer,
  type TestServer,
} from "../../../tests/support/server";
import { cacheKeyOf, isOpenEndedKey, LANDING_KEY, ROUTED_FIRST_SEGMENTS } from "./key.server";

const SLUG = "tenant-onboarding-in-under-30-minutes";
const IMAGE = `/images/${"ab".repeat(32)}-640.webp`;

describe("cacheKeyOf", () => {
  it("keeps a page's path and drops the query strings its route does not read", () => {
    for (const path of [
      "/",
      "/home",
      "/about",
      "/privacy",
      "/rss.xml",
      "/robots.txt",
      `/blog/${SLUG}`,
      `/api/posts/${SLUG}`,
      IMAGE,
    ]) {
      expect(cacheKeyOf(path)).toBe(path);
      expect(cacheKeyOf(`${path}?utm_source=x&page=2&limit=5`)).toBe(path);
      expect(cacheKeyOf(`${path}?`)).toBe(path);
    }
  });

  it("keys /blog/search by its query as normalised and its page; too long or a bad page, no key", () => {
    expect(cacheKeyOf("/blog/search")).toBe("/blog/search");
    expect(cacheKeyOf("/blog/search?q=&page=abc")).toBe("/blog/search");
    expect(cacheKeyOf("/blog/search?q=%20%20")).toBe("/blog/search");
    for (const url of [
      "/blog/search?q=cloud+systems",
      "/blog/search?q=%20Cloud%20%20%0ASYSTEMS%20&utm_source=x",
      "/blog/search?q=cloud%09systems&page=1",
      "/blog/search?q=cloud+systems&q=other",
    ]) {
      expect(cacheKeyOf(url)).toBe("/blog/search?q=cloud%20systems");
    }
    expect(cacheKeyOf("/blog/search?q=cloud&page=02")).toBe("/blog/search?q=cloud&page=2");
    expect(cacheKeyOf("/blog/search?q=a%00b")).toBe("/blog/search?q=a%20b");
    expect(cacheKeyOf(`/blog/search?q=${"a".repeat(200)}`)).toBe(`/blog/search?q=${"a".repeat(200)}`);
    for (const url of [
      `/blog/search?q=${"a".repeat(201)}`,
      "/blog/search?q=cloud&page=0",
      "/blog/search?q=cloud&page=51",
      "/blog/search?q=cloud&page=x",
      "/blog/search/",
      "/Blog/Search?q=cloud",
    ]) {
      expect(cacheKeyOf(url), url).toBeUndefined();
    }
    expect(isOpenEndedKey("/blog/search?q=cloud")).toBe(true);
    expect(isOpenEndedKey("/blog/search")).toBe(false);
  });

  it("keeps /api/posts's limit and offset as the route reads them: first value, as a number, defaults filled in", () => {
    const all = "/api/posts?limit=100&offset=0";
    for (const url of [
      "/api/posts",
      "/api/posts?limit=100",
      "/api/posts?offset=0&limit=100&x=1",
      "/api/posts?limit=0100&offset=000",
      all,
    ]) {
      expect(cacheKeyOf(url)).toBe(all);
    }
    expect(cacheKeyOf("/api/posts?limit=5")).toBe("/api/posts?limit=5&offset=0");
    expect(cacheKeyOf("/api/posts?offset=10&limit=5&limit=7")).toBe("/api/posts?limit=5&offset=10");
    expect(cacheKeyOf("/api/posts?limit=5#&limit=7")).toBe("/api/posts?limit=5&offset=0");
    // Refused with 400: no key, nothing to store.
    for (const url of [
      "/api/posts?limit=0",
      "/api/posts?limit=101",
      "/api/posts?offset=-1",
      "/api/posts?limit=x",
      "/api/posts?limit=",
    ]) {
      expect(cacheKeyOf(url)).toBeUndefined();
    }
  });

  it("keeps /sitemap.xml's page, the file of a sitemap index, as the route reads it", () => {
    for (const url of ["/sitemap.xml", "/sitemap.xml?", "/sitemap.xml?utm_source=x&limit=5"])
      expect(cacheKeyOf(url)).toBe("/sitemap.xml");
    expect(cacheKeyOf("/sitemap.xml?page=2&utm_source=x")).toBe("/sitemap.xml?page=2");
    // Refused with 404: no key.
    for (const url of ["/sitemap.xml?page=", "/sitemap.xml?page=0", "/sitemap.xml?page=02", "/sitemap.xml?page=x"])
      expect(cacheKeyOf(url)).toBeUndefined();
  });

  it("keeps /blog's article, or else its page, as the route reads them", () => {
    for (const url of ["/blog", "/blog?page=1", "/blog?page=01&x=2", "/blog?utm_source=x"])
      expect(cacheKeyOf(url)).toBe("/blog");
    expect(cacheKeyOf("/blog?page=2&utm_source=x")).toBe("/blog?page=2");
    expect(cacheKeyOf("/blog?page=002")).toBe("/blog?page=2");
    expect(cacheKeyOf(`/blog?page=3&article=${SLUG}`)).toBe(`/blog?article=${SLUG}`);
    expect(cacheKeyOf(`/blog?article=${SLUG}&article=other`)).toBe(`/blog?article=${SLUG}`);
    // 404s: no key.
    for (const url of [
      "/blog?page=0",
      "/blog?page=x",
      "/blog?page=",
      "/blog?article=",
      "/blog?article=Not-A-Slug",
      "/blog?article=a%2Fb",
    ]) {
      expect(cacheKeyOf(url)).toBeUndefined();
    }
  });

  it("keeps a category page's page as /blog does, and its feed's plain path (ADR 041)", () => {
    const page = "/blog/category/web-design";
    for (const url of [page, `${page}?page=1`, `${page}?page=01&utm_source=x`, `${page}?article=${SLUG}`])
      expect(cacheKeyOf(url)).toBe(page);
    expect(cacheKeyOf(`${page}?page=3&x=1`)).toBe(`${page}?page=3`);
    expect(cacheKeyOf(`${page}?page=003`)).toBe(`${page}?page=3`);
    for (const url of [`${page}/rss.xml`, `${page}/rss.xml?page=2&x=1`])
      expect(cacheKeyOf(url)).toBe(`${page}/rss.xml`);
    // 404s (a page the route refuses, a slug that can have no page) and other spellings: no key.
    for (const url of [
      `${page}?page=0`,
      `${page}?page=x`,
      `${page}?page=`,
      "/blog/category/",
      "/blog/category/Web-Design",
      "/blog/category/web--design",
      "/blog/category/web%2Ddesign",
      `/blog/category/${"a".repeat(201)}`,
      `/blog/category/${"a".repeat(201)}/rss.xml`,
      `${page}/`,
      `${page}/rss.xml/`,
      `${page}/other`,
      "/blog/category//rss.xml",
      "/blog/category/a/b/rss.xml",
    ]) {
      expect(cacheKeyOf(url), url).toBeUndefined();
    }
  });

  it("keys nothing under /book: the booking pages change with every booking (ADR 071)", () => {
    for (const url of ["/book", "/book?from=2026-12-01", "/book/", "/Book", `/book/manage/${"ab".repeat(20)}`]) {
      expect(cacheKeyOf(url), url).toBeUndefined();
    }
  });

  it("gives every plainly spelled path that only the catch-all route answers one landing-page entry", () => {
    for (const url of [
      "/no-such-page",
      "/No_Such/Page/",
      "/x?y=1",
      "/administrator",
      "/blogs",
      "/api-docs",
      "/homepage/x",
    ]) {
      expect(cacheKeyOf(url)).toBe(LANDING_KEY);
    }
  });

  it("caches no other spelling of a page, nor a path it cannot tell the router's reading of", () => {
    for (const url of [
      "/blog/",
      "/Blog",
      "/BLOG?page=2",
      "/%62log",
      "//blog",
      "/x/../blog",
      "/x/%2e%2e/blog",
      "/about/",
      "/About",
      "/home/",
      "/rss.xml/",
      "/RSS.xml",
      "/api/posts/",
      "/API/posts?limit=5",
      "/api//posts",
      `/blog/${SLUG}/`,
      `/blog/${SLUG.toUpperCase()}`,
      `/blog/${SLUG}%2D`,
      "/blog/a/b",
      `/api/posts/${SLUG}/`,
      `${IMAGE}/`,
      IMAGE.toUpperCase(),
      // Routed first segments: the catch-all never answers these from the cache.
      "/admin",
      "/admin/x",
      "/Admin/x",
      "/api/x",
      "/healthz",
      "/images/x",
      "/assets/x",
      "/home/x",
      // Not plainly spelled: the URL parser or the router could read another path.
      "/a/./b",
      "/a/../about",
      "/wp-login.php",
      "/%61",
      "/a\\b",
      "/a//b",
      "/a#b",
      "http://example.com/",
      "*",
      "",
    ]) {
      expect(cacheKeyOf(url), url).toBeUndefined();
    }
  });

  it("knows the first segment of every route but the catch-all (app/routes.ts)", () => {
    const firstSegments = new Set<string>();
    const visit = (list: typeof routes, parent = "") => {
      for (const route of list) {
        if (route.id === "catch-all") continue;
        const path = [parent, route.path ?? ""].filter(Boolean).join("/");
        firstSegments.add(path.split("/")[0]!.toLowerCase());
        if (route.children) visit(route.children, path);
      }
    };
    visit(routes);
    expect(new Set([...firstSegments, "assets", "__manifest"])).toEqual(ROUTED_FIRST_SEGMENTS);
    expect(routes.find((route) => route.id === "catch-all")?.path).toBe("*");
  });

  it("is a fixed point: a key names the URL that answers for it", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."/?&=.%-_aAbBlogpize0159#\\"), maxLength: 40 }), (tail) => {
        const key = cacheKeyOf(`/${tail}`);
        if (key !== undefined && key !== LANDING_KEY) expect(cacheKeyOf(key)).toBe(key);
      }),
      { numRuns: 2000 },
    );
  });

  it("never makes a new key from parameters a route does not read", () => {
    const unread = fc
      .string({ minLength: 1, maxLength: 12 })
      .filter((name) => !["limit", "offset", "page", "article"].includes(name));
    const hot = fc.constantFrom(
      "/",
      "/about",
      "/blog",
      "/blog?page=2",
      `/blog/${SLUG}`,
      "/blog/category/web-design",
      "/blog/category/web-design?page=2",
      "/blog/category/web-design/rss.xml",
      "/api/posts?limit=5",
      "/rss.xml",
      "/x",
    );
    fc.assert(
      fc.property(hot, fc.array(fc.tuple(unread, fc.string({ maxLength: 12 })), { maxLength: 4 }), (url, params) => {
        const query = new URLSearchParams(params).toString();
        const spelled = query ? `${url}${url.includes("?") ? "&" : "?"}${query}` : url;
        expect(cacheKeyOf(spelled)).toBe(cacheKeyOf(url));
      }),
      { numRuns: 1000 },
    );
  });
});

/** A GET sent exactly as spelled (fetch would tidy the path), on a keep-alive agent. */
function get(base: string, path: string, headers: Record<string, string> = {}, agent?: http.Agent) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const request = http.request(`${base}/`, { path, headers, agent: agent ?? false }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    request.on("error", reject);
    request.end();
  });
}

/**
 * Requests `path` until it is a hit as a browser asks for it (a hit waits for
 * the entry's compressed copies, if it gets any, so it has a Content-Length).
 */
async function warm(base: string, path: string) {
  // Any other path is the landing page with a 404 (ADR 054), kept like a 200.
  const status = cacheKeyOf(path) === LANDING_KEY ? 404 : 200;
  for (let i = 0; i < 100; i++) {
    const answer = await get(base, path, { "Accept-Encoding": "br" });
    expect(answer.status, path).toBe(status);
    if (answer.headers["x-cache"] === "hit" && answer.headers["content-length"] !== undefined) return answer;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${path} never became a settled hit`);
}

describe("canonical cache keys on the built server", () => {
  const SITE = "https://www.example.test";
  let server: TestServer;
  beforeAll(async () => {
    server = await startSqliteServer({ SITE_URL: SITE, SEED_SAMPLE_POSTS: "true", LOG_LEVEL: "debug" });
  });
  afterAll(() => server?.stop());

  it("answers every unknown path from one entry, a 404 with noindex: the landing page's bytes do not depend on the path", async () => {
    const first = await get(server.url, "/no-such-page");
    expect(first.status).toBe(404);
    expect(first.headers["x-cache"]).toBe("miss");
    expect(first.headers["x-robots-tag"]).toBe("noindex");
    expect(first.body).toContain('<meta name="robots" content="noindex"/>');
    expect(first.body).not.toContain('rel="canonical"');
    await cacheStored(server, LANDING_KEY);
    // The entry keeps the 404 (ADR 054): a hit is no soft 404 either.
    const shared = await get(server.url, "/Some/Other_path/?utm_source=x");
    expect(shared.headers["x-cache"]).toBe("hit");
    expect(shared.status).toBe(404);
    expect(shared.headers["x-robots-tag"]).toBe("noindex");
    expect(shared.body).toBe(first.body);
    // A client holding the entry's ETag still gets the 404, never a 304.
    const conditional = await get(server.url, "/yet-another-path", { "If-None-Match": String(shared.headers.etag) });
    expect(conditional.status).toBe(404);

    // Rendered afresh for other paths (not cached: not plainly spelled, or a
    // route of their own): the same bytes, so sharing one entry is exact.
    for (const path of ["/no-such-page.php", "/%6eo-such-page", "/a/../b/c", "//about", "/admin/nothing-here"]) {
      const rendered = await get(server.url, path);
      expect(rendered.headers["x-cache"], path).toBe("miss");
      expect(rendered.status, path).toBe(404);
      expect(rendered.body, path).toBe(first.body);
    }
    // The landing page itself stays a 200 with its canonical link, under keys of its own.
    for (const path of ["/", "/home"]) {
      const home = await get(server.url, path);
      expect(home.status, path).toBe(200);
      expect(home.body).toContain(`<link rel="canonical" href="${SITE}/"/>`);
      expect(home.body).not.toContain('name="robots"');
    }
    expect(cacheStoredLines(server).filter((stored) => stored.key === LANDING_KEY)).toHaveLength(1);
  });

  it("never stores React Router's route manifest as the landing page", async () => {
    // What the admin's client asks for when it navigates (lazy route discovery): public, a year-long max-age.
    const version = /"version":\s*"([^"]+)"/.exec((await get(server.url, "/admin/login")).body)![1]!;
    const url = `/__manifest?paths=%2Fadmin%2C%2Fadmin%2Fmessages&version=${version}`;
    const manifest = await get(server.url, url);
    expect(manifest.status).toBe(200);
    expect(manifest.headers["content-type"]).toMatch(/json/);
    expect(cacheKeyOf(url)).toBeUndefined();
    expect((await get(server.url, url)).headers["content-type"]).toMatch(/json/);
    const landing = await get(server.url, "/a-path-after-the-manifest");
    expect(landing.headers["content-type"]).toMatch(/text\/html/);
    expect(landing.body).toContain("<h1");
  });

  it("answers other spellings of a page without caching them", async () => {
    await warm(server.url, "/blog");
    const page = await get(server.url, "/blog");
    for (const path of ["/blog/", "/Blog", "/%62log", "/blog?page=1&utm_source=x"]) {
      expect((await get(server.url, path)).body, path).toBe(page.body);
    }
    for (const path of ["/blog/", "/Blog", "/%62log", "/about/", "/x/../about"]) {
      const answers = [await get(server.url, path), await get(server.url, path)];
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      expect(
        answers.map((answer) => answer.headers["x-cache"]),
        path,
      ).toEqual(["miss", "miss"]);
    }
    const keys = cacheStoredLines(server).map((stored) => stored.key);
    expect(keys).not.toContain("/about");
    expect(keys.filter((key) => key === "/blog")).toHaveLength(1);
  });

  it("keeps the hot pages and the cache's size through a flood of unique junk URLs", { timeout: 180_000 }, async () => {
    const hot = [
      "/",
      "/home",
      "/about",
      "/blog",
      `/blog/${SLUG}`,
      `/blog?article=${SLUG}`,
      "/api/posts?limit=5",
      `/api/posts/${SLUG}`,
      "/rss.xml",
      "/sitemap.xml",
      "/robots.txt",
      "/a-landing-page",
    ];
    for (const path of hot) await warm(server.url, path);
    // A small answer (no compressed copies) whose "stored" line gives the cache's size.
    await get(server.url, "/api/posts?offset=100001");
    const before = await cacheStored(server, "/api/posts?limit=100&offset=100001");
    const linesBefore = cacheStoredLines(server).length;

    const junk: string[] = [];
    const id = () => randomBytes(6).toString("hex");
    const canonical = [
      "/about",
      "/blog",
      `/blog/${SLUG}`,
      "/api/posts",
      `/api/posts/${SLUG}`,
      "/rss.xml",
      "/sitemap.xml",
      "/robots.txt",
    ];
    const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
    const withQuery = (path: string, query: string) => `${path}${path.includes("?") ? "&" : "?"}${query}`;
    // Not one junk URL may be stored (asserted below), so a thousand show it
    // as well as more would: each is a render the cache must refuse to keep.
    for (let i = 0; i < 500; i++) junk.push(withQuery(pick(hot), `${id()}=${id()}`));
    for (let i = 0; i < 300; i++) junk.push(`/${id()}${i % 2 ? `/${id()}` : ""}${i % 5 === 0 ? ".php" : ""}`);
    const spellings = [
      (path: string) => `${path}/`,
      (path: string) => path.replace(/[a-z]/, (letter) => letter.toUpperCase()),
      (path: string) => path.replace(/[a-z]/, (letter) => `%${letter.charCodeAt(0).toString(16)}`),
      (path: string) => `/${path}`,
      (path: string) => `/${id()}/..${path}`,
    ];
    for (let i = 0; i < 200; i++) junk.push(withQuery(pick(spellings)(pick(canonical)), id()));
    expect(new Set(junk).size).toBe(junk.length);
    expect(junk.filter((url) => cacheKeyOf(url) === undefined).length).toBeGreaterThan(150);

    const agent = keepAliveAgent(8);
    const statuses = new Map<number, number>();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < junk.length) {
          const { status } = await get(server.url, junk[next++]!, {}, agent);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      }),
    );
    agent.destroy();
    expect(
      [...statuses.keys()].every((status) => status === 200 || status === 404),
      JSON.stringify([...statuses]),
    ).toBe(true);

    for (const path of hot) {
      const answer = await get(server.url, path, { "Accept-Encoding": "br" });
      expect(answer.headers["x-cache"], path).toBe("hit");
    }
    // Nothing was stored meanwhile; the next entry finds the cache as it was.
    expect(cacheStoredLines(server).slice(linesBefore)).toEqual([]);
    const probe = await get(server.url, "/api/posts?offset=100002");
    const after = await cacheStored(server, "/api/posts?limit=100&offset=100002");
    expect(after.entries).toBe(before.entries + 1);
    // The probe's entry: its body and the 512 bytes each entry is counted for (app/server/page-cache/cache.server.ts).
    expect(after.bytes).toBe(before.bytes + Buffer.byteLength(probe.body) + 512);
  });

  it(
    "keeps at most 256 of the API's open-ended pages, however many offsets a flood asks for",
    { timeout: 120_000 },
    async () => {
      await warm(server.url, "/api/posts?limit=5");
      const agent = keepAliveAgent(8);
      let next = 0;
      const offsets = Array.from({ length: 600 }, (_, i) => 200_000 + i);
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < offsets.length) {
            const { status } = await get(server.url, `/api/posts?limit=3&offset=${offsets[next++]!}`, {}, agent);
            expect(status).toBe(200);
          }
        }),
      );
      agent.destroy();
      const last = await cacheStored(server, `/api/posts?limit=3&offset=${offsets.at(-1)!}`);
      const stored = cacheStoredLines(server).filter((line) => line.key.startsWith("/api/posts?limit=3&"));
      // More were stored than the cap, so the cap was what kept them out.
      expect(stored.length).toBeGreaterThan(256);
      // Every stored line counts all entries: the open-ended ones never pass 256 on top of the rest.
      const others = cacheStoredLines(server)
        .filter((line) => !line.key.startsWith("/api/posts?limit=3&"))
        .at(-1)!.entries;
      expect(last.entries).toBeLessThanOrEqual(others + 256);
      expect((await get(server.url, "/api/posts?limit=5", { "Accept-Encoding": "br" })).headers["x-cache"]).toBe("hit");
      expect(isOpenEndedKey("/api/posts?limit=5&offset=0")).toBe(false);
      expect(isOpenEndedKey("/api/posts?limit=5&offset=10")).toBe(true);
    },
  );
});
