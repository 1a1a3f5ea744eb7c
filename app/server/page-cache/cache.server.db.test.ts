import { createHash } from "node:crypto";
import http from "node:http";
import net from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SKIP_INTRO_SCRIPT } from "~/components/site/intro-script";
import { LOAD_ISLANDS_SCRIPT } from "~/islands/load-islands";
import { categoryHref, categorySlugOf } from "~/lib/categories";
import { cacheKeyOf } from "./key.server";
import { ApiClient, cacheStored, cacheStoredLines, startServer, type TestServer } from "../../../tests/support/server";

let server: TestServer;
let admin: ApiClient;
const post = {
  title: "Cached",
  slug: "cached",
  excerpt: "About caching",
  content: "Body",
  category: "Cloud",
  readTime: "1 min read",
  published: true,
  publishDate: "2026-01-15T10:00:00.000Z",
  headerImage: null,
};

beforeAll(async () => {
  // Debug logging: the cache reports each entry it stores, which the tests wait for.
  server = await startServer({ LOG_LEVEL: "debug" });
  admin = new ApiClient(server.url);
  await admin.signIn();
});
afterAll(() => server?.stop());

describe("the page cache", () => {
  it("answers a repeated public request from the cache, with an ETag that earns a 304", async () => {
    const visitor = new ApiClient(server.url);
    const since = cacheStoredLines(server).length;
    const first = await visitor.get("/api/posts?limit=5");
    expect(first.headers.get("x-cache")).toBe("miss");
    await cacheStored(server, "/api/posts?limit=5&offset=0", since);
    expect(first.headers.get("cache-control")).toBe("public, no-cache");
    const second = await visitor.get("/api/posts?limit=5");
    expect(second.headers.get("x-cache")).toBe("hit");
    expect(second.text).toBe(first.text);
    expect(second.headers.get("x-total-count")).toBe(first.headers.get("x-total-count"));
    expect(second.headers.get("content-type")).toMatch(/application\/json/);
    const etag = second.headers.get("etag");
    expect(etag).toMatch(/^W\/".+"$/);
    const revalidated = await visitor.get("/api/posts?limit=5", { "If-None-Match": etag! });
    expect(revalidated.status).toBe(304);
    expect(revalidated.text).toBe("");
    // Security headers are the request's own, not replayed.
    expect(second.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("serves a change at once: a create, an update and a delete each end the cached answers", async () => {
    const visitor = new ApiClient(server.url);
    const before = await visitor.get("/api/posts");
    const etag = (await visitor.get("/api/posts")).headers.get("etag")!;
    const created = await admin.post("/api/admin/posts", post);
    expect(created.status).toBe(201);

    const after = await visitor.get("/api/posts", { "If-None-Match": etag });
    expect(after.status).toBe(200);
    expect(after.headers.get("x-cache")).toBe("miss");
    expect(after.json.length).toBe(before.json.length + 1);

    expect((await visitor.get("/api/posts/cached")).json.title).toBe("Cached");
    await admin.put(`/api/admin/posts/${created.json.id}`, { ...post, title: "Cached, edited" });
    expect((await visitor.get("/api/posts/cached")).json.title).toBe("Cached, edited");

    await admin.delete(`/api/admin/posts/${created.json.id}`);
    expect((await visitor.get("/api/posts/cached")).status).toBe(404);
    expect((await visitor.get("/api/posts")).json.length).toBe(before.json.length);
  });

  it("answers from the cache whatever cookies arrive: a signed-in administrator's, or a made-up session", async () => {
    const visitor = new ApiClient(server.url);
    for (const path of ["/home", "/api/posts?limit=3"]) {
      const since = cacheStoredLines(server).length;
      const first = await visitor.get(path);
      expect(first.headers.get("x-cache")).toBe("miss");
      await cacheStored(server, cacheKeyOf(path)!, since);
      const answers = [
        await admin.get(path),
        await visitor.get(path, { Cookie: "session=junk" }),
        await visitor.get(path, { Cookie: "theme=dark; __Host-session=made-up; session=" }),
      ];
      for (const answer of answers) {
        expect(answer.headers.get("x-cache"), path).toBe("hit");
        expect(answer.text).toBe(first.text);
      }
    }
    // A cookie that arrives with a miss neither skips the cache nor keeps the entry from being stored.
    const since = cacheStoredLines(server).length;
    const missed = await visitor.get("/rss.xml", { Cookie: "session=junk" });
    expect(missed.headers.get("x-cache")).toBe("miss");
    await cacheStored(server, "/rss.xml", since);
    expect((await visitor.get("/rss.xml", { Cookie: "session=other-junk" })).headers.get("x-cache")).toBe("hit");
  });

  it("keeps out of the way of errors and writes", async () => {
    const visitor = new ApiClient(server.url);
    await visitor.get("/api/posts/missing");
    expect((await visitor.get("/api/posts/missing")).headers.get("x-cache")).toBe("miss");
    await visitor.get("/api/posts?limit=0");
    const bad = await visitor.get("/api/posts?limit=0");
    expect(bad.status).toBe(400);
    expect(bad.headers.get("x-cache")).toBe("miss");
  });

  it("serves public pages without a nonce, the same bytes to every visitor; the CSP allows the landing page's and the islands loader's inline scripts by their hashes", async () => {
    const visitor = new ApiClient(server.url);
    const introHash = `'sha256-${createHash("sha256").update(SKIP_INTRO_SCRIPT).digest("base64")}'`;
    const loaderHash = `'sha256-${createHash("sha256").update(LOAD_ISLANDS_SCRIPT).digest("base64")}'`;
    for (const path of ["/", "/blog", "/about", "/privacy"]) {
      const since = cacheStoredLines(server).length;
      const pages = [await visitor.get(path)];
      await cacheStored(server, path, since);
      for (let i = 0; i < 2; i++) pages.push(await visitor.get(path));
      expect(pages.map((page) => page.headers.get("x-cache"))).toEqual(["miss", "hit", "hit"]);
      for (const page of pages) {
        expect(page.status).toBe(200);
        expect(page.text).not.toContain("nonce=");
        expect(page.text).toBe(pages[0]!.text);
        expect(page.headers.get("content-security-policy")).toContain(
          `script-src 'self' ${introHash} ${loaderHash} 'nonce-`,
        );
      }
    }
    expect((await visitor.get("/")).text).toContain(`<script>${SKIP_INTRO_SCRIPT}</script>`);
  });

  it("renders a page once for concurrent requests, after a write made it stale", async () => {
    const url = `${server.url}/blog`;
    await raw(url);
    await cacheStored(server, "/blog");
    const created = await admin.post("/api/admin/posts", { ...post, slug: "concurrent", title: "Concurrent" });
    expect(created.status).toBe(201);
    const since = cacheStoredLines(server).length;
    // Eight connections opened first, then the eight requests written in one go. On
    // PostgreSQL they all reach the server while the first is rendering (its queries
    // wait on the network); on SQLite a render takes one turn of the event loop, so
    // the others find its entry either way.
    const answers = await sendTogether(url, 8);
    // Every entry is stored before its answer ends; its log line reaches the test a moment later.
    await cacheStored(server, "/blog", since);
    const stored = cacheStoredLines(server)
      .slice(since)
      .filter((line) => line.key === "/blog");
    expect(stored).toHaveLength(1);
    // Whichever came first rendered it.
    expect(answers.map((answer) => header(answer.headers, "x-cache")).sort()).toEqual([
      ...Array<string>(7).fill("hit"),
      "miss",
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body.equals(answers[0]!.body)).toBe(true);
    }
    expect(answers[0]!.body.toString()).toContain("Concurrent");
    await admin.delete(`/api/admin/posts/${created.json.id}`);
  });

  it("answers HEAD from a cached GET without a body", async () => {
    const visitor = new ApiClient(server.url);
    const since = cacheStoredLines(server).length;
    await visitor.get("/api/posts?limit=3");
    await cacheStored(server, "/api/posts?limit=3&offset=0", since);
    const head = await visitor.request("HEAD", "/api/posts?limit=3");
    expect(head.status).toBe(200);
    expect(head.headers.get("x-cache")).toBe("hit");
    expect(head.text).toBe("");
  });
});

/** A request over node:http: the raw header list as sent (names, order, repeats) and the undecoded body. */
function raw(url: string, headers: Record<string, string> = {}, method = "GET") {
  return new Promise<{ status: number; headers: Array<[string, string]>; body: Buffer }>((resolve, reject) => {
    const request = http.request(url, { method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const list: Array<[string, string]> = [];
        for (let i = 0; i < response.rawHeaders.length; i += 2)
          list.push([response.rawHeaders[i]!, response.rawHeaders[i + 1]!]);
        resolve({ status: response.statusCode!, headers: list, body: Buffer.concat(chunks) });
      });
    });
    request.on("error", reject);
    request.end();
  });
}

/** GETs `url` on `count` connections, opened first, the requests then written in one go; their answers. */
async function sendTogether(url: string, count: number) {
  const { hostname, port, pathname, search } = new URL(url);
  const sockets = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Socket>((resolve, reject) => {
          const socket = net.connect(Number(port), hostname, () => resolve(socket));
          socket.once("error", reject);
        }),
    ),
  );
  const answers = sockets.map(
    (socket) =>
      new Promise<{ status: number; headers: Array<[string, string]>; body: Buffer }>((resolve, reject) => {
        const chunks: Buffer[] = [];
        socket.on("data", (chunk: Buffer) => chunks.push(chunk));
        socket.once("error", reject);
        socket.once("end", () => {
          const whole = Buffer.concat(chunks);
          const split = whole.indexOf("\r\n\r\n");
          const [statusLine, ...lines] = whole.subarray(0, split).toString("latin1").split("\r\n");
          const headers = lines.map((line): [string, string] => {
            const colon = line.indexOf(":");
            return [line.slice(0, colon), line.slice(colon + 1).trim()];
          });
          resolve({ status: Number(statusLine!.split(" ")[1]), headers, body: whole.subarray(split + 4) });
        });
      }),
  );
  // HTTP/1.0: every answer is its body as it is, up to the close (no chunked encoding to undo).
  const request = `GET ${pathname}${search} HTTP/1.0\r\nHost: ${hostname}:${port}\r\n\r\n`;
  for (const socket of sockets) socket.write(request);
  return Promise.all(answers);
}

/** Header lines as comparable strings, without the ones expected to differ, the nonce made neutral. */
function comparable(headers: Array<[string, string]>, without: string[] = []) {
  return headers
    .filter(([name]) => !["date", "x-cache", ...without].includes(name.toLowerCase()))
    .map(([name, value]) => `${name.toLowerCase()}: ${value.replace(/'nonce-[^']+'/, "'nonce-N'")}`)
    .sort();
}

const nonceOf = (headers: Array<[string, string]>) =>
  /'nonce-([^']+)'/.exec(headers.find(([name]) => name.toLowerCase() === "content-security-policy")?.[1] ?? "")?.[1];
const header = (headers: Array<[string, string]>, name: string) => headers.find(([n]) => n.toLowerCase() === name)?.[1];

describe("cache hits (ADR 024)", () => {
  let site: TestServer;
  // https: helmet adds HSTS and upgrade-insecure-requests, which hits must carry too.
  // Debug logs: the cache reports each entry it stores, which a test waits for
  // before it asserts a hit (the entry is stored just after the miss's answer).
  beforeAll(async () => {
    site = await startServer({ SITE_URL: "https://site.example", SEED_SAMPLE_POSTS: "true", LOG_LEVEL: "debug" });
  });
  afterAll(() => site?.stop());

  it("answers a hit with the miss's headers, whatever the Accept-Encoding's spelling", async () => {
    const url = `${site.url}/api/posts?limit=5`;
    const miss = await raw(url);
    expect(header(miss.headers, "x-cache")).toBe("miss");
    await cacheStored(site, "/api/posts?limit=5&offset=0");
    const hit = await raw(url);
    expect(header(hit.headers, "x-cache")).toBe("hit");
    expect(hit.body.equals(miss.body)).toBe(true);
    expect(hit.body.length).toBeGreaterThan(1024);
    expect(header(hit.headers, "strict-transport-security")).toMatch(/max-age=/);
    expect(header(hit.headers, "content-security-policy")).toContain("upgrade-insecure-requests");
    expect(nonceOf(hit.headers)).not.toBe(nonceOf(miss.headers));

    // The miss streamed its body (chunked) and the API sets no ETag of its own.
    expect(comparable(hit.headers, ["etag", "content-length"])).toEqual(
      comparable(miss.headers, ["transfer-encoding"]),
    );
    expect(header(hit.headers, "content-length")).toBe(String(hit.body.length));

    // An Accept-Encoding with q-values is negotiated the same way: identical.
    const fullStackHit = await raw(url, { "Accept-Encoding": "identity;q=1" });
    expect(header(fullStackHit.headers, "x-cache")).toBe("hit");
    expect(comparable(hit.headers)).toEqual(comparable(fullStackHit.headers));
    expect(fullStackHit.body.equals(hit.body)).toBe(true);
  });

  it("answers a cached page with the same body and headers each time", async () => {
    const url = `${site.url}/about`;
    const miss = await raw(url);
    await cacheStored(site, "/about");
    const first = await raw(url);
    const second = await raw(url);
    const fullStackHit = await raw(url, { "Accept-Encoding": "identity;q=1" });
    for (const page of [first, second, fullStackHit]) {
      expect(header(page.headers, "x-cache")).toBe("hit");
      expect(page.body.equals(miss.body)).toBe(true);
    }
    expect(nonceOf(first.headers)).not.toBe(nonceOf(second.headers));
    expect(comparable(first.headers)).toEqual(comparable(fullStackHit.headers));
  });

  it("serves gzip and brotli copies of a cached article made once, as a browser asks for it", async () => {
    const [article] = (await new ApiClient(site.url).get("/api/posts?limit=1")).json as Array<{ slug: string }>;
    const url = `${site.url}/blog/${article!.slug}`;
    const plainMiss = await raw(url);
    const plain = plainMiss;
    await cacheStored(site, new URL(url).pathname);
    const browser = await raw(url, { "Accept-Encoding": "gzip, deflate, br, zstd" });
    expect(header(browser.headers, "x-cache")).toBe("hit");
    expect(header(browser.headers, "content-type")).toMatch(/^text\/html/);
    expect(header(browser.headers, "content-encoding")).toBe("br");
    expect(Number(header(browser.headers, "content-length"))).toBe(browser.body.length);
    expect(zlib.brotliDecompressSync(browser.body).equals(plain.body)).toBe(true);
    expect(browser.body.length).toBeLessThan(plain.body.length / 2);
    const gzipped = await raw(url, { "Accept-Encoding": "gzip" });
    expect(header(gzipped.headers, "content-encoding")).toBe("gzip");
    expect(zlib.gunzipSync(gzipped.body).equals(plain.body)).toBe(true);
    // The same copy every time: nothing in the page differs per answer.
    expect((await raw(url, { "Accept-Encoding": "br" })).body.equals(browser.body)).toBe(true);
    // A q-value is negotiated the same way, to the same copy.
    const weighted = await raw(url, { "Accept-Encoding": "br;q=1" });
    expect(comparable(weighted.headers)).toEqual(comparable(browser.headers));
    expect(weighted.body.equals(browser.body)).toBe(true);
    // Apart from the encoding and its length, the miss's headers.
    expect(comparable(browser.headers, ["content-length", "content-encoding", "etag"])).toEqual(
      comparable(plainMiss.headers, ["content-length", "transfer-encoding", "etag"]),
    );
  });

  it("serves gzip and brotli copies of a cached JSON answer that decode to the same body", async () => {
    const url = `${site.url}/api/posts?limit=4`;
    await raw(url);
    await cacheStored(site, "/api/posts?limit=4&offset=0");
    const plain = await raw(url);
    const gzipped = await raw(url, { "Accept-Encoding": "gzip" });
    expect(header(gzipped.headers, "x-cache")).toBe("hit");
    expect(header(gzipped.headers, "content-encoding")).toBe("gzip");
    expect(header(gzipped.headers, "vary")).toBe("Accept-Encoding");
    expect(Number(header(gzipped.headers, "content-length"))).toBe(gzipped.body.length);
    expect(zlib.gunzipSync(gzipped.body).equals(plain.body)).toBe(true);

    const browser = await raw(url, { "Accept-Encoding": "gzip, deflate, br, zstd" });
    expect(header(browser.headers, "content-encoding")).toBe("br");
    expect(zlib.brotliDecompressSync(browser.body).equals(plain.body)).toBe(true);
    // Apart from the encoding and its length, the same headers as the answer as it is.
    expect(comparable(browser.headers, ["content-length", "content-encoding"])).toEqual(
      comparable(plain.headers, ["content-length"]),
    );

    const head = await raw(url, { "Accept-Encoding": "gzip" }, "HEAD");
    expect(header(head.headers, "content-encoding")).toBeUndefined();
    expect(header(head.headers, "content-length")).toBe(String(plain.body.length));
    expect(head.body.length).toBe(0);
  });

  it("leaves small answers uncompressed, as compression() does, and answers If-None-Match with 304", async () => {
    const url = `${site.url}/api/posts?offset=1000`;
    await raw(url);
    await cacheStored(site, "/api/posts?limit=100&offset=1000");
    const small = await raw(url, { "Accept-Encoding": "gzip, br" });
    expect(header(small.headers, "x-cache")).toBe("hit");
    expect(small.body.toString()).toBe("[]");
    expect(header(small.headers, "content-encoding")).toBeUndefined();
    expect(header(small.headers, "vary")).toBe("Accept-Encoding");

    const etag = header(small.headers, "etag")!;
    const revalidated = await raw(url, { "If-None-Match": etag, "Accept-Encoding": "gzip" });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect(comparable(revalidated.headers)).toEqual(comparable(small.headers, ["content-length"]));
  });

  it("writes pino-http's access-log line for a hit as for a miss, once per answer", async () => {
    const url = "/api/posts?limit=2";
    await raw(site.url + url);
    await cacheStored(site, "/api/posts?limit=2&offset=0");
    await raw(site.url + url);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const lines = site.logs.filter((l) => (l.req as { url?: string } | undefined)?.url === url);
    expect(lines).toHaveLength(2);
    const [fullStack, fast] = lines;
    expect(Object.keys(fast!)).toEqual(Object.keys(fullStack!));
    expect(Object.keys(fast!)).toEqual(["level", "time", "pid", "req", "res", "responseTime", "msg"]);
    expect(fast).toMatchObject({
      level: 30,
      req: { method: "GET", url },
      res: { statusCode: 200 },
      msg: "request completed",
    });
    expect(fullStack).toMatchObject({
      level: 30,
      req: { method: "GET", url },
      res: { statusCode: 200 },
      msg: "request completed",
    });
    expect(typeof fast!.responseTime).toBe("number");
  });

  it("applies the request checks to hits: a GET that declares a body too large gets 413", async () => {
    const url = `${site.url}/api/posts?limit=5`;
    await raw(url);
    const refused = await raw(url, { "Content-Length": String(2 * 1024 * 1024) });
    expect(refused.status).toBe(413);
  });

  it("negotiates Accept-Encoding with compression()'s own negotiator, among the copies it holds", async () => {
    const url = `${site.url}/api/posts?limit=6`;
    await raw(url);
    await cacheStored(site, "/api/posts?limit=6&offset=0");
    const plain = await raw(url);
    const cases: Array<[string, string | undefined]> = [
      ["gzip, deflate, br, zstd", "br"],
      ["deflate, gzip", "gzip"],
      ["GZIP", "gzip"],
      ["gzip;q=0, br", "br"],
      ["br;q=0.5, gzip", "gzip"],
      ["*", "br"],
      ["zstd, identity", undefined],
      // compression() would deflate; hits have no deflate copy, so the body goes as it is.
      ["deflate", undefined],
      ["identity;q=0", undefined],
    ];
    for (const [acceptEncoding, expected] of cases) {
      const answer = await raw(url, { "Accept-Encoding": acceptEncoding });
      expect([acceptEncoding, header(answer.headers, "x-cache")]).toEqual([acceptEncoding, "hit"]);
      expect([acceptEncoding, header(answer.headers, "content-encoding")]).toEqual([acceptEncoding, expected]);
      const decoded =
        expected === "br"
          ? zlib.brotliDecompressSync(answer.body)
          : expected === "gzip"
            ? zlib.gunzipSync(answer.body)
            : answer.body;
      expect(decoded.equals(plain.body)).toBe(true);
    }
  });
});

describe("PAGE_CACHE_MB=0", () => {
  let uncached: TestServer | undefined;
  afterAll(() => uncached?.stop());

  it("turns the page cache off: every request is rendered, none stored", async () => {
    uncached = await startServer({ PAGE_CACHE_MB: "0", SEED_SAMPLE_POSTS: "true", LOG_LEVEL: "debug" });
    for (const path of ["/", "/blog", "/api/posts?limit=5", "/api/posts?limit=5"]) {
      const response = await fetch(uncached.url + path);
      expect(response.status).toBe(200);
      expect(response.headers.get("x-cache")).toBeNull();
      await response.arrayBuffer();
    }
    expect(cacheStoredLines(uncached)).toHaveLength(0);
  });

  it("renders every cached kind of answer the same for a signed-in administrator as for a visitor, so hits may ignore cookies", async () => {
    uncached ??= await startServer({ PAGE_CACHE_MB: "0", SEED_SAMPLE_POSTS: "true", LOG_LEVEL: "debug" });
    const visitor = new ApiClient(uncached.url);
    const signedIn = new ApiClient(uncached.url);
    await signedIn.signIn();
    const [post] = (await visitor.get("/api/posts?limit=1")).json as Array<{ slug: string; category: string }>;
    const paths = [
      "/",
      "/home",
      "/about",
      "/privacy",
      "/blog",
      `/blog/${post!.slug}`,
      `/blog?article=${post!.slug}`,
      categoryHref(categorySlugOf(post!.category), 1),
      "/blog/search",
      "/blog/search?q=the",
      "/rss.xml",
      "/sitemap.xml",
      "/robots.txt",
      "/api/posts?limit=5",
      `/api/posts/${post!.slug}`,
      "/any-other-path",
    ];
    for (const path of paths) {
      const [anonymous, admin] = [await visitor.get(path), await signedIn.get(path)];
      // Any other path shows the landing page with a 404 (ADR 054).
      const status = path === "/any-other-path" ? 404 : 200;
      expect(anonymous.status, path).toBe(status);
      expect(cacheKeyOf(path), path).toBeDefined();
      expect(admin.status, path).toBe(status);
      expect(admin.text, path).toBe(anonymous.text);
      for (const header of ["content-type", "cache-control", "set-cookie"]) {
        expect(admin.headers.get(header), `${path} ${header}`).toBe(anonymous.headers.get(header));
      }
    }
  });
});
