import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, startServer, type TestServer } from "../tests/support/server";

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
  server = await startServer();
  admin = new ApiClient(server.url);
  await admin.signIn();
});
afterAll(() => server?.stop());

describe("the page cache", () => {
  it("answers a repeated public request from the cache, with an ETag that earns a 304", async () => {
    const visitor = new ApiClient(server.url);
    const first = await visitor.get("/api/posts?limit=5");
    expect(first.headers.get("x-cache")).toBe("miss");
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

  it("keeps out of the way of signed-in requests, errors and writes", async () => {
    const signedIn = await admin.get("/api/posts");
    expect(signedIn.headers.get("x-cache")).toBeNull();
    const visitor = new ApiClient(server.url);
    await visitor.get("/api/posts/missing");
    expect((await visitor.get("/api/posts/missing")).headers.get("x-cache")).toBe("miss");
    await visitor.get("/api/posts?limit=0");
    const bad = await visitor.get("/api/posts?limit=0");
    expect(bad.status).toBe(400);
    expect(bad.headers.get("x-cache")).toBe("miss");
  });

  it("gives every cached page its own CSP nonce, matching its Content-Security-Policy", async () => {
    const visitor = new ApiClient(server.url);
    const nonces = [];
    for (let i = 0; i < 3; i++) {
      const page = await visitor.get("/blog");
      expect(page.status).toBe(200);
      expect(page.headers.get("x-cache")).toBe(i === 0 ? "miss" : "hit");
      const policyNonce = /'nonce-([^']+)'/.exec(page.headers.get("content-security-policy") ?? "")?.[1];
      expect(policyNonce).toBeTruthy();
      const inPage = new Set([...page.text.matchAll(/nonce="([^"]+)"/g)].map((m) => m[1]));
      expect([...inPage]).toEqual([policyNonce]);
      nonces.push(policyNonce);
    }
    expect(new Set(nonces).size).toBe(3);
  });

  it("answers HEAD from a cached GET without a body", async () => {
    const visitor = new ApiClient(server.url);
    await visitor.get("/api/posts?limit=3");
    const head = await visitor.request("HEAD", "/api/posts?limit=3");
    expect(head.status).toBe(200);
    expect(head.headers.get("x-cache")).toBe("hit");
    expect(head.text).toBe("");
  });
});
