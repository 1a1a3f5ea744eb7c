import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendChunked, socketBufferBytes, startWatchedServer, type WatchedServer } from "../support/hostile";
import { ApiClient, type TestServer } from "../support/server";

/**
 * Issue 13's attacks, each reproduced against the real server on the backend
 * under test (TEST_DATABASE): none may freeze it, crash it, fill its memory or
 * answer 5xx.
 */
let watched: WatchedServer;
let server: TestServer;
let admin: ApiClient;
let postId: string;
let messageId: string;

beforeAll(async () => {
  watched = await startWatchedServer();
  ({ server, admin, postId, messageId } = watched);
});

afterAll(async () => {
  // Nothing above held the event loop past its budget (EVENT_LOOP_BUDGET_MS).
  await watched?.stopExpectingNoStalls();
});

const FORM = { "Content-Type": "application/x-www-form-urlencoded" };
const JSON_TYPE = { "Content-Type": "application/json" };

describe("attack 1: an e-mail that made the patterns backtrack", () => {
  const dots = (n: number) => `a@${".".repeat(n)}@`;

  it.each([
    ["/api/contact", { name: "A", email: dots(40_000), message: "m" }, 400],
    ["/api/auth/login", { email: dots(40_000), password: "whatever-password" }, 400],
    ["/api/auth/setup", { token: "t", email: dots(40_000), password: "long-enough-password" }, 400],
  ])("POST %s answers at once", async (path, body, status) => {
    const started = performance.now();
    const answer = await new ApiClient(server.url).post(path, body, { "X-Forwarded-For": "203.0.113.1" });
    expect(answer.status).toBe(status);
    expect(answer.json.error).toEqual(expect.any(String));
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it.each(["/admin/login", "/admin/setup"])("the %s form answers at once", async (path) => {
    const body = new URLSearchParams({
      email: dots(12_000),
      password: "long-enough-password",
      confirm: "long-enough-password",
      token: "t",
    });
    const answer = await fetch(server.url + path, {
      method: "POST",
      headers: { ...FORM, "X-Forwarded-For": "203.0.113.2" },
      body,
      redirect: "manual",
    });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
  });

  it("a loop of them leaves /healthz answering", async () => {
    const attacks = Array.from({ length: 20 }, () =>
      new ApiClient(server.url).post("/api/contact", { name: "A", email: dots(40_000), message: "m" }),
    );
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect((await Promise.all(attacks)).every((answer) => answer.status === 400)).toBe(true);
  });
});

describe("attack 2 and bounded bodies: every route that reads a body stops at its limit", () => {
  // [method, path (:post and :message stand for ids made above), headers, whether it needs the session, limit]
  const routes: Array<[string, string, Record<string, string>, boolean, number]> = [
    ["POST", "/api/contact", JSON_TYPE, false, 64 * 1024],
    ["POST", "/api/auth/login", JSON_TYPE, false, 1024 * 1024],
    ["POST", "/api/auth/setup", JSON_TYPE, false, 1024 * 1024],
    ["POST", "/api/admin/posts", JSON_TYPE, true, 1024 * 1024],
    ["PUT", "/api/admin/posts/:post", JSON_TYPE, true, 1024 * 1024],
    ["PUT", "/api/admin/posts/:post/autosave", JSON_TYPE, true, 1024 * 1024],
    ["PATCH", "/api/admin/messages/:message", JSON_TYPE, true, 1024 * 1024],
    ["POST", "/api/admin/preview", JSON_TYPE, true, 1024 * 1024],
    ["POST", "/api/admin/posts/check", JSON_TYPE, true, 1024 * 1024],
    // A page's document and its draft: 256 KiB and room for the draft's version fields.
    ["PUT", "/api/admin/content/landing", JSON_TYPE, true, 256 * 1024 + 1024],
    ["PUT", "/api/admin/content/about/draft", JSON_TYPE, true, 256 * 1024 + 1024],
    ["POST", "/api/admin/redirects", JSON_TYPE, true, 1024 * 1024],
    ["POST", "/api/admin/redirects.csv", { "Content-Type": "text/csv" }, true, 1_000_000],
    // Removing an administrator carries the password in a JSON body (ADR 046).
    ["DELETE", "/api/admin/administrators/00000000-0000-4000-8000-000000000000", JSON_TYPE, true, 1024 * 1024],
    [
      "POST",
      "/api/admin/upload",
      { "Content-Type": "multipart/form-data; boundary=x" },
      true,
      10 * 1024 * 1024 + 64 * 1024,
    ],
    ["POST", "/admin/login", FORM, false, 16 * 1024],
    ["POST", "/admin/setup", FORM, false, 16 * 1024],
    ["POST", "/admin/messages", FORM, true, 16 * 1024],
  ];
  const pathOf = (path: string) => path.replace(":post", postId).replace(":message", messageId);

  it.each(routes)(
    "%s %s: a chunked body many times the limit gets 413 early, and the connection closes",
    async (method, path, headers, signedIn, limit) => {
      // Far more than the limit and than what the sockets' buffers can hold.
      const total = Math.max(limit * 16, 4 * socketBufferBytes());
      const outcome = await sendChunked(
        server.url,
        method,
        pathOf(path),
        { ...headers, ...(signedIn ? { Cookie: admin.cookie } : {}) },
        total,
      );
      expect(outcome.status).toBe(413);
      expect(outcome.connection).toBe("close");
      // The answer came after the limit and what the sockets' buffers hold,
      // long before the whole body.
      expect(outcome.written).toBeLessThan(total / 2);
    },
  );

  it.each(routes)(
    "%s %s: a declared Content-Length over the limit gets 413 before any byte is read",
    async (method, path, headers, signedIn, limit) => {
      const answer = await new Promise<number>((resolve, reject) => {
        import("node:http").then(({ default: http }) => {
          const request = http.request(`${server.url}${pathOf(path)}`, {
            method,
            headers: { ...headers, ...(signedIn ? { Cookie: admin.cookie } : {}), "Content-Length": String(limit + 1) },
          });
          request.on("response", (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          });
          request.on("error", reject);
          request.flushHeaders();
        }, reject);
      });
      expect(answer).toBe(413);
    },
  );

  it("a client that keeps streaming after its 413 is cut off within seconds", async () => {
    const started = performance.now();
    const outcome = await sendChunked(server.url, "POST", "/api/contact", JSON_TYPE, 2 * 1024 * 1024 * 1024, "a", {
      keepSending: 15_000,
    });
    expect(outcome.status).toBe(413);
    expect(outcome.cutOff).toBe(true);
    // The server drops the rest for 2 s (UNREAD_BODY_LINGER_MS), then closes.
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("a chunked sign-in of 300 MB is refused, and the server lives on", async () => {
    const outcome = await sendChunked(server.url, "POST", "/admin/login", FORM, 300 * 1024 * 1024);
    expect(outcome.status).toBe(413);
    // The limit (16 KiB), what the sockets' buffers hold, and what arrives before the client reads its answer.
    expect(outcome.written).toBeLessThan(2 * socketBufferBytes());
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});

describe("requests the router refuses", () => {
  it.each([
    ["GET", "/blog/%E0%A4%A", 400],
    ["GET", "/api/posts/%ED%A0%80", 400],
    ["DELETE", "/blog", 405],
    ["PUT", "/about", 405],
  ])("%s %s is a %i, logged as one JSON line, nothing on stderr", async (method, path, status) => {
    const before = server.stderr().length;
    const answer = await fetch(server.url + path, { method });
    await answer.arrayBuffer();
    expect(answer.status).toBe(status);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.stderr().slice(before)).toBe("");
  });
});

describe("methods", () => {
  it.each(["TRACE", "PROPFIND", "MKCOL", "PURGE"])("%s / is a 405, not a 500", async (method) => {
    const { default: http } = await import("node:http");
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(`${server.url}/`, { method }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on("error", reject);
      request.end();
    });
    expect(status).toBe(405);
  });
});

describe("attack 4: text the database cannot store", () => {
  const post = { title: "T", slug: "nul-check", excerpt: "e", content: "c" };

  it.each([
    ["title", { ...post, title: "a\u0000b" }],
    ["content", { ...post, content: "body\u0000" }],
    ["category", { ...post, category: "\ud800" }],
    ["excerpt", { ...post, excerpt: "\udfff tail" }],
  ])("a post whose %s holds NUL or a lone surrogate is a 400 naming it", async (field, body) => {
    const answer = await admin.post("/api/admin/posts", body);
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe(
      `${field} contains a character that cannot be stored (a NUL character or an unpaired surrogate)`,
    );
    const update = await admin.put(`/api/admin/posts/${postId}`, body);
    expect(update.status).toBe(400);
  });

  it.each(["name", "email", "phone", "message"])(
    "a contact message whose %s holds NUL is a 400 naming it",
    async (field) => {
      const body = {
        name: "Ada",
        email: "ada@example.com",
        phone: "805",
        message: "Hi",
        preferredContact: "email",
        service: "media",
      };
      const answer = await new ApiClient(server.url).post(
        "/api/contact",
        { ...body, [field]: `${body[field as keyof typeof body]}\u0000` },
        { "X-Forwarded-For": "203.0.113.3" },
      );
      expect(answer.status).toBe(400);
      expect(answer.json.error).toMatch(new RegExp(`^${field} contains a character that cannot be stored`));
    },
  );

  it.each([
    ["POST", "/api/admin/posts/check", { content: "[a](/blog/x\u0000)" }, "content"],
    [
      "PUT",
      "/api/admin/content/about/draft",
      { document: { story: "\u0000" }, baseVersion: 0, overDraftVersion: 0 },
      "document.story",
    ],
    ["PUT", "/api/admin/content/landing", { hero: { title: "a\u0000" } }, "hero.title"],
    ["POST", "/api/admin/redirects", { from: "/nul", to: "/about\u0000" }, "to"],
  ])("%s %s with NUL in a string is a 400 naming the field", async (method, path, body, field) => {
    const answer = await admin.request(method, path, body);
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe(
      `${field} contains a character that cannot be stored (a NUL character or an unpaired surrogate)`,
    );
  });

  it.each([
    ["in a field", "/csv-nul,/about\u0000\n"],
    ["in a quoted field", '"/csv-nul-quoted","/a\u0000b"\n'],
  ])("a redirects CSV with NUL %s is a 400, nothing imported", async (_where, csv) => {
    const answer = await admin.request("POST", "/api/admin/redirects.csv", csv, { "Content-Type": "text/csv" });
    expect(answer.status).toBe(400);
    expect((await admin.get("/api/admin/redirects?q=csv-")).json).toEqual([]);
  });

  it.each([
    ["GET", "/api/admin/content/%00"],
    ["PUT", "/api/admin/content/%00/draft"],
    ["GET", "/api/admin/content/about/revisions/%00"],
    ["DELETE", "/api/admin/content/about/share-links/%00"],
    ["GET", "/api/admin/redirects/%00"],
    ["DELETE", "/api/admin/redirects/%00"],
    ["GET", "/pages/preview/about/%00"],
    ["GET", "/blog/%00"],
    ["GET", "/blog/abc%00def"],
    ["GET", "/blog?article=%00"],
    ["GET", "/api/posts/%00"],
    ["GET", `/api/posts/${"a".repeat(5000)}`],
    ["GET", "/api/admin/posts/%00"],
    ["PUT", "/api/admin/posts/%00"],
    ["DELETE", "/api/admin/posts/%00"],
    ["PATCH", "/api/admin/messages/%00"],
    ["DELETE", "/api/admin/messages/%00"],
    ["GET", "/images/%00"],
  ])("%s %s is a 404", async (method, path) => {
    const answer = await admin.request(
      method,
      path,
      method === "PUT" || method === "PATCH" ? { ...post, read: true } : undefined,
    );
    expect(answer.status).toBe(404);
  });

  it("a NUL id in the messages form changes nothing and is no error", async () => {
    const answer = await fetch(`${server.url}/admin/messages`, {
      method: "POST",
      headers: { ...FORM, Cookie: admin.cookie },
      body: "intent=delete&id=%00",
      redirect: "manual",
    });
    expect(answer.status).toBe(400);
    expect((await admin.get("/api/admin/messages")).json.some((m: { id: string }) => m.id === messageId)).toBe(true);
  });
});
