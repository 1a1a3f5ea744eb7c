import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, startServer, TEST_ADMIN, type TestServer } from "../../../tests/support/server";

describe("sign-in, session and sign-out", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.stop());

  it("signs in with the right password: 200, user, HttpOnly SameSite=Lax session cookie", async () => {
    const client = new ApiClient(server.url);
    const { status, json, headers } = await client.post("/api/auth/login", {
      email: "ADMIN@example.com",
      password: TEST_ADMIN.password,
    });
    expect(status).toBe(200);
    expect(json).toEqual({ user: { email: TEST_ADMIN.email } });
    const cookie = headers.get("set-cookie")!;
    expect(cookie).toMatch(/^session=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/); // the site URL is http here
    expect((await client.get("/api/auth/me")).json).toEqual({ user: { email: TEST_ADMIN.email } });
    expect((await client.get("/api/admin/posts")).status).toBe(200);
  });

  it("gives the same 401 answer for an unknown e-mail and a wrong password", async () => {
    const client = new ApiClient(server.url);
    const headers = { "X-Forwarded-For": "203.0.113.50" };
    const unknown = await client.post("/api/auth/login", { email: "nobody@example.com", password: "whatever12" }, headers);
    const wrong = await client.post("/api/auth/login", { email: TEST_ADMIN.email, password: "wrong-password" }, headers);
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.json).toEqual(wrong.json);
    expect(unknown.headers.get("set-cookie")).toBeNull();
  });

  it("answers 400 for a body without credentials", async () => {
    expect((await new ApiClient(server.url).post("/api/auth/login", { email: 1 })).status).toBe(400);
  });

  it("/api/auth/me answers 401 without a session", async () => {
    const { status, json } = await new ApiClient(server.url).get("/api/auth/me");
    expect(status).toBe(401);
    expect(json.error).toBeTruthy();
  });

  it("sign-out answers 204, revokes the session on the server and clears the cookie", async () => {
    const client = new ApiClient(server.url);
    await client.signIn();
    const stolen = client.cookie;
    const out = await client.post("/api/auth/logout");
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toMatch(/^session=;.*Max-Age=0/);
    // Replaying the old cookie does not work: the session is gone from the database.
    const replay = new ApiClient(server.url);
    replay.cookie = stolen;
    expect((await replay.get("/api/auth/me")).status).toBe(401);
    expect((await replay.get("/api/admin/posts")).status).toBe(401);
  });

  it("never logs the password", () => {
    expect(JSON.stringify(server.logs)).not.toContain(TEST_ADMIN.password);
  });
});

describe("sign-in throttling", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.stop());

  const attempt = (client: ApiClient, email: string, password: string, address: string) =>
    client.post("/api/auth/login", { email, password }, { "X-Forwarded-For": address });

  it("after 5 failures for one account, even the right password gets 429 with Retry-After, from any address", async () => {
    const client = new ApiClient(server.url);
    for (let i = 0; i < 5; i++) {
      expect((await attempt(client, TEST_ADMIN.email, "wrong-password", `198.51.100.${i + 1}`)).status).toBe(401);
    }
    const blocked = await attempt(client, TEST_ADMIN.email, TEST_ADMIN.password, "198.51.100.99");
    expect(blocked.status).toBe(429);
    expect(blocked.json.error).toMatch(/Too many sign-in attempts/);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(800);
  });

  it("after 5 failures from one address, that address gets 429 for any account", async () => {
    const client = new ApiClient(server.url);
    for (let i = 0; i < 5; i++) {
      expect((await attempt(client, `someone${i}@example.com`, "nope-nope-nope", "192.0.2.7")).status).toBe(401);
    }
    expect((await attempt(client, "other@example.com", "nope-nope-nope", "192.0.2.7")).status).toBe(429);
    // Another address is not affected.
    expect((await attempt(client, "other@example.com", "nope-nope-nope", "192.0.2.8")).status).toBe(401);
  });
});

describe("first administrator", () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it("is created from ADMIN_EMAIL and ADMIN_PASSWORD at start", async () => {
    server = await startServer({ ADMIN_EMAIL: "Owner@Example.com", ADMIN_PASSWORD: "a-long-password" });
    expect(server.logs.some((l) => l.msg === "administrator created from ADMIN_EMAIL")).toBe(true);
    await new ApiClient(server.url).signIn({ email: "owner@example.com", password: "a-long-password" });
  });

  it("without them, a one-time setup link is printed, and only its token can create the account", async () => {
    server = await startServer({ ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined });
    const line = server.logs.find((l) => typeof l.setupLink === "string");
    expect(line).toBeDefined();
    const link = new URL(String(line!.setupLink));
    expect(link.pathname).toBe("/admin/setup");
    const token = link.searchParams.get("token")!;
    expect(token.length).toBeGreaterThanOrEqual(32);

    const client = new ApiClient(server.url);
    // The setup screen is offered only with the token.
    expect((await fetch(`${server.url}/admin/setup`)).status).toBe(403);
    expect((await fetch(`${server.url}/admin/setup?token=wrong`)).status).toBe(403);
    expect((await fetch(`${server.url}/admin/setup?token=${token}`)).status).toBe(200);

    const wrong = await client.post("/api/auth/setup", { token: "wrong", email: "x@example.com", password: "long-enough-1" });
    expect(wrong.status).toBe(403);
    const short = await client.post("/api/auth/setup", { token, email: "x@example.com", password: "short" });
    expect(short.status).toBe(400);

    const created = await client.post("/api/auth/setup", { token, email: "first@example.com", password: "long-enough-1" });
    expect(created.status).toBe(201);
    expect((await client.get("/api/auth/me")).json).toEqual({ user: { email: "first@example.com" } });

    // One-time: the same token does nothing now.
    const again = await new ApiClient(server.url).post("/api/auth/setup", {
      token,
      email: "second@example.com",
      password: "long-enough-1",
    });
    expect(again.status).toBe(403);
    expect((await fetch(`${server.url}/admin/setup?token=${token}`)).status).toBe(403);
  });
});
