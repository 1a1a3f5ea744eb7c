import { spawn } from "node:child_process";
import { randomBytes, scryptSync } from "node:crypto";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { TEST_BACKEND } from "../support/backend";
import { ApiClient, startServer, TEST_ADMIN, TEST_TOTP_KEY, type TestServer } from "../support/server";
import { resolveDatabase } from "~/server/platform/config.server";
import { connect, type Connection } from "~/server/db/db.server";
import { verifyPassword } from "~/server/identity/passwords.server";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The server's own database, opened beside it (as an operator's tool would). */
/**
 * A server of its own for the describe block, and a direct connection to its
 * database (to age rows, read hashes); both end with the block.
 */
function serverWithDatabase(env: Record<string, string> = {}): { server: TestServer; database: Connection } {
  const running = {} as { server: TestServer; database: Connection };
  beforeAll(async () => {
    running.server = await startServer(env);
    running.database = connect(resolveDatabase(running.server.databaseUrl, ROOT));
  });
  afterAll(async () => {
    await running.database?.db.destroy();
    await running.server?.stop();
  });
  return running;
}

/** `npm run admin -- ARGS` against the server's database, with `input` on standard input. */
function runAdminCli(
  server: TestServer,
  args: string[],
  input: string,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, "build/server/cli.js"), ...args], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: server.databaseUrl,
        LOG_LEVEL: "silent",
        // The site's environment, as an operator runs the CLI with it: the throttles' keys derive from this key.
        ...(TEST_BACKEND === "postgres" ? { TOTP_ENCRYPTION_KEY: TEST_TOTP_KEY } : {}),
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, output }));
    child.stdin.end(input);
  });
}

/** Statuses of `count` answers, tallied: { 401: 5, 429: 35 }. */
function tally(answers: Array<{ status: number }>): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

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
    const unknown = await client.post(
      "/api/auth/login",
      { email: "nobody@example.com", password: "whatever12" },
      headers,
    );
    const wrong = await client.post(
      "/api/auth/login",
      { email: TEST_ADMIN.email, password: "wrong-password" },
      headers,
    );
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

  it("40 wrong passwords at once for one account: 5 are checked (401), 35 get 429", async () => {
    const email = "parallel-account@example.com";
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        attempt(new ApiClient(server.url), email, "wrong-password", `198.18.0.${i + 1}`),
      ),
    );
    expect(tally(answers)).toEqual({ 401: 5, 429: 35 });
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(refused.json.error).toMatch(/^Too many sign-in attempts\. Try again in \d+ minutes?\.$/);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(800);
    }
  });

  it("40 sign-ins at once from one address, each for another account: 5 are checked, 35 get 429", async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        attempt(new ApiClient(server.url), `spray-${i}@example.com`, "wrong-password", "198.18.1.1"),
      ),
    );
    expect(tally(answers)).toEqual({ 401: 5, 429: 35 });
  });

  it("a 320-character e-mail is an ordinary 401 (its throttle key still fits the database)", async () => {
    const email = `${"a".repeat(300)}@example-long.com`.slice(0, 320);
    const answer = await attempt(new ApiClient(server.url), email, "wrong-password", "198.18.6.6");
    expect(answer.status).toBe(401);
  });

  it("an IPv6 client is limited per /64, and ::ffff:a.b.c.d counts as a.b.c.d", async () => {
    const client = new ApiClient(server.url);
    for (let i = 0; i < 5; i++) {
      const address = `2001:db8:aa:1:${i + 1}::${i + 7}`;
      expect((await attempt(client, `v6-${i}@example.com`, "wrong-password", address)).status).toBe(401);
    }
    expect((await attempt(client, "v6-x@example.com", "wrong-password", "2001:db8:aa:1:ffff::1")).status).toBe(429);
    expect((await attempt(client, "v6-x@example.com", "wrong-password", "2001:db8:aa:2::1")).status).toBe(401);

    for (let i = 0; i < 5; i++) {
      expect((await attempt(client, `v4-${i}@example.com`, "wrong-password", "198.18.2.2")).status).toBe(401);
    }
    expect((await attempt(client, "v4-x@example.com", "wrong-password", "::ffff:198.18.2.2")).status).toBe(429);
  });
});

describe("a sign-in lock is a backoff, not a wall", () => {
  const running = serverWithDatabase();

  const attempt = (password: string, address: string, email = TEST_ADMIN.email) =>
    new ApiClient(running.server.url).post("/api/auth/login", { email, password }, { "X-Forwarded-For": address });

  async function lockTheAccount() {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => attempt("wrong-password", `198.18.3.${i + 1}`)),
    );
    expect(tally(answers)).toEqual({ 401: 5, 429: 3 });
    expect((await attempt(TEST_ADMIN.password, "198.18.3.100")).status).toBe(429);
  }

  it("the lock ends with its window: the right password then works", async () => {
    await lockTheAccount();
    // Fifteen minutes pass (the window's end, moved into the past).
    await running.database.db
      .updateTable("rate_limits")
      .set({ expire: Date.now() - 1 })
      // The only account counted so far: its key is a hash of the e-mail.
      .where("key", "like", "login-account:%")
      .execute();
    expect((await attempt(TEST_ADMIN.password, "198.18.3.101")).status).toBe(200);
    // A success clears the account's count: five fresh attempts again.
    for (let i = 0; i < 5; i++) expect((await attempt("wrong-password", `198.18.4.${i + 1}`)).status).toBe(401);
    expect((await attempt("wrong-password", "198.18.4.9")).status).toBe(429);
  });

  it("`npm run admin -- set-password` lifts the lock at once", async () => {
    await running.database.db.deleteFrom("rate_limits").execute();
    await lockTheAccount();
    const reset = await runAdminCli(running.server, ["set-password", TEST_ADMIN.email], "a-brand-new-password\n");
    expect(reset.output).toContain("sign-in attempts cleared");
    expect(reset.code).toBe(0);
    expect((await attempt("a-brand-new-password", "198.18.3.102")).status).toBe(200);
  });

  it("a success gives the address its attempt back", async () => {
    const address = "198.18.5.5";
    await running.database.db.deleteFrom("rate_limits").execute();
    await runAdminCli(running.server, ["set-password", TEST_ADMIN.email], `${TEST_ADMIN.password}\n`);
    for (let i = 0; i < 4; i++) {
      expect((await attempt("wrong-password", address, `typo-${i}@example.com`)).status).toBe(401);
    }
    for (let i = 0; i < 3; i++) expect((await attempt(TEST_ADMIN.password, address)).status).toBe(200);
    expect((await attempt("wrong-password", address, "typo-4@example.com")).status).toBe(401);
    expect((await attempt("wrong-password", address, "typo-5@example.com")).status).toBe(429);
  });
});

describe("what the throttles keep in rate_limits", () => {
  const running = serverWithDatabase();
  const keys = async () =>
    (await running.database.db.selectFrom("rate_limits").select("key").execute()).map((row) => row.key);
  const attempt = (email: string, address: string, password = "wrong-password") =>
    new ApiClient(running.server.url).post("/api/auth/login", { email, password }, { "X-Forwarded-For": address });

  it("rows whose window has ended are deleted at the process's first reservation", async () => {
    await running.database.db
      .insertInto("rate_limits")
      .values([
        { key: "login-address:ended", points: 5, expire: Date.now() - 1000 },
        { key: "contact:live", points: 1, expire: Date.now() + 60_000 },
      ])
      .execute();
    expect((await attempt("someone@example.com", "198.18.20.1")).status).toBe(401);
    const left = await keys();
    expect(left).not.toContain("login-address:ended");
    expect(left).toContain("contact:live");
    await running.database.db.deleteFrom("rate_limits").execute();
  });

  it("600 failed sign-ins with new e-mails from one address leave a few rows, not 600", async () => {
    const statuses: Record<number, number> = {};
    for (let batch = 0; batch < 20; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => attempt(`flood-${batch}-${i}@example.com`, "198.18.21.1")),
      );
      for (const { status } of answers) statuses[status] = (statuses[status] ?? 0) + 1;
    }
    expect(statuses).toEqual({ 401: 5, 429: 595 });
    // The address's row, and one for each of the five accounts it was let through to.
    expect(await keys()).toHaveLength(6);
    // After the fifth, every request is refused before any row is written, so
    // 600 show it as well as 3,000 did. The guard is against a hang: a flood
    // cut off by the default 30 s would go on into the next test's table.
  }, 120_000);

  it("IPv6 addresses rotating inside one /64 are one address", async () => {
    await running.database.db.deleteFrom("rate_limits").execute();
    const answers = [];
    for (let i = 0; i < 40; i++) {
      answers.push(
        await attempt(`v6-${i}@example.com`, `2001:db8:5:6:${((i * 7919) % 65536).toString(16)}::${i.toString(16)}`),
      );
    }
    expect(tally(answers)).toEqual({ 401: 5, 429: 35 });
    expect(await keys()).toHaveLength(6);
    // The next /64 is another address.
    expect((await attempt("v6-next@example.com", "2001:db8:5:7::1")).status).toBe(401);
  });

  it("neither a visitor's address nor an e-mail is in a key, after sign-ins and a contact message", async () => {
    await running.database.db.deleteFrom("rate_limits").execute();
    const ipv4 = "198.18.22.33";
    const ipv6 = "2001:db8:abcd:12::99";
    const emails = ["private.person@example.org", TEST_ADMIN.email];
    expect((await attempt(emails[0]!, ipv4)).status).toBe(401);
    expect((await attempt(TEST_ADMIN.email, ipv6, TEST_ADMIN.password)).status).toBe(200);
    expect((await attempt(emails[0]!, ipv6)).status).toBe(401);
    const contact = await new ApiClient(running.server.url).post(
      "/api/contact",
      { name: "Private Person", email: emails[0], message: "Hello there, a question about the garden monitor." },
      { "X-Forwarded-For": ipv4 },
    );
    expect(contact.status).toBe(201);
    const stored = await keys();
    expect(stored.some((key) => key.startsWith("contact:"))).toBe(true);
    expect(stored.some((key) => key.startsWith("login-address:"))).toBe(true);
    expect(stored.some((key) => key.startsWith("login-account:"))).toBe(true);
    const forbidden = [ipv4, "198.18.22", ipv6, "2001:db8:abcd:12", ...emails, "example.org", "example.com"];
    for (const key of stored) {
      expect(key).toMatch(/^[a-z0-9-]+:[0-9a-f]{32}$/);
      for (const text of forbidden) expect(key.toLowerCase()).not.toContain(text);
    }
  });
});

describe("passwords stored with older parameters", () => {
  // Today's parameters are the standard ones a real site hashes with.
  const running = serverWithDatabase({ PASSWORD_HASH_COST: "standard" });

  const storedHash = async () =>
    (
      await running.database.db
        .selectFrom("admin_users")
        .select("password_hash")
        .where("email", "=", TEST_ADMIN.email)
        .executeTakeFirstOrThrow()
    ).password_hash;

  it("are rehashed with today's parameters at the next successful sign-in", async () => {
    // As the site stored it before ADR 021: scrypt N=2^15, r=8, p=1.
    const salt = randomBytes(16);
    const key = scryptSync(TEST_ADMIN.password, salt, 64, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    const legacy = ["scrypt", 2 ** 15, 8, 1, salt.toString("base64"), key.toString("base64")].join("$");
    await running.database.db
      .updateTable("admin_users")
      .set({ password_hash: legacy })
      .where("email", "=", TEST_ADMIN.email)
      .execute();

    // A failed attempt changes nothing.
    expect(
      (await new ApiClient(running.server.url).post("/api/auth/login", { ...TEST_ADMIN, password: "wrong-password" }))
        .status,
    ).toBe(401);
    expect(await storedHash()).toBe(legacy);

    await new ApiClient(running.server.url).signIn();
    const upgraded = await storedHash();
    expect(upgraded).not.toBe(legacy);
    expect(upgraded).toMatch(/^scrypt\$16384\$8\$5\$/);
    expect(await verifyPassword(TEST_ADMIN.password, upgraded)).toBe(true);
    await new ApiClient(running.server.url).signIn();
    expect(await storedHash()).toBe(upgraded);
  });
});

describe("session lifetime", () => {
  const running = serverWithDatabase();

  const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
  const sessionRows = () => running.database.db.selectFrom("sessions").selectAll().execute();

  async function signedIn() {
    await running.database.db.deleteFrom("sessions").execute();
    const client = new ApiClient(running.server.url);
    await client.signIn();
    const [row] = await sessionRows();
    expect(row!.last_seen_at).toBe(row!.created_at);
    return { client, id: row!.id };
  }
  const setSession = (id: string, values: { last_seen_at?: string; expires_at?: string }) =>
    running.database.db.updateTable("sessions").set(values).where("id", "=", id).execute();

  it("ends after 24 hours without a request", async () => {
    const { client, id } = await signedIn();
    await setSession(id, { last_seen_at: ago(24 * 3_600_000 + 60_000) });
    expect((await client.get("/api/auth/me")).status).toBe(401);
    expect((await client.get("/api/admin/posts")).status).toBe(401);
    expect(await sessionRows()).toEqual([]);
  });

  it("stays while it is used, writing its last-seen time at most every five minutes", async () => {
    const { client, id } = await signedIn();
    const recent = ago(2 * 60_000);
    await setSession(id, { last_seen_at: recent });
    expect((await client.get("/api/auth/me")).status).toBe(200);
    expect((await sessionRows())[0]!.last_seen_at).toBe(recent);

    await setSession(id, { last_seen_at: ago(23 * 3_600_000) });
    const before = Date.now();
    expect((await client.get("/api/auth/me")).status).toBe(200);
    expect(Date.parse((await sessionRows())[0]!.last_seen_at!)).toBeGreaterThanOrEqual(before - 1000);
  });

  it("ends 14 days after sign-in however much it is used", async () => {
    const { client, id } = await signedIn();
    await setSession(id, { expires_at: ago(1000), last_seen_at: ago(0) });
    expect((await client.get("/api/auth/me")).status).toBe(401);
    expect(await sessionRows()).toEqual([]);
  });
});

describe("session cookie on an https site", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ SITE_URL: "https://www.example.com", PASSWORD_HASH_COST: "standard" });
  });
  afterAll(() => server?.stop());

  it("is __Host-session: Secure, Path=/, no Domain", async () => {
    const client = new ApiClient(server.url);
    const { headers } = await client.signIn();
    const cookie = headers.get("set-cookie")!;
    expect(cookie).toMatch(/^__Host-session=[^;]+;/);
    const attributes = cookie.split(";").map((part) => part.trim().toLowerCase());
    expect(attributes).toContain("secure");
    expect(attributes).toContain("path=/");
    expect(attributes).toContain("httponly");
    expect(attributes.some((a) => a.startsWith("domain="))).toBe(false);
    expect((await client.get("/api/auth/me")).json).toEqual({ user: { email: TEST_ADMIN.email } });

    // A plain "session" cookie means nothing here.
    const impostor = new ApiClient(server.url);
    impostor.cookie = `session=${client.cookie.split("=")[1]}`;
    expect((await impostor.get("/api/auth/me")).status).toBe(401);

    const out = await client.post("/api/auth/logout");
    expect(out.headers.get("set-cookie")).toMatch(/^__Host-session=;.*Max-Age=0/);
  });

  it("answers a signed-in request for a public page from the page cache, as anyone's (they do not differ, ADR 048)", async () => {
    const anonymous = new ApiClient(server.url);
    await anonymous.get("/about");
    const cached = await anonymous.get("/about");
    expect(cached.headers.get("x-cache")).toBe("hit");
    const admin = new ApiClient(server.url);
    await admin.signIn();
    expect(admin.cookie).toMatch(/^__Host-session=/);
    const signedIn = await admin.get("/about");
    expect(signedIn.headers.get("x-cache")).toBe("hit");
    expect(signedIn.text).toBe(cached.text);
    // The admin's own pages are never cached.
    expect((await admin.get("/admin")).headers.get("x-cache")).toBe("miss");
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
    const setupPage = await fetch(`${server.url}/admin/setup?token=${token}`);
    expect(setupPage.status).toBe(200);
    // The token is in the page's address: neither its assets' requests nor a link followed from it send it on.
    expect(setupPage.headers.get("referrer-policy")).toBe("no-referrer");
    // Nor does the server's access log keep it.
    const logged = server.logs.filter((l) => (l.req as { url?: string } | undefined)?.url?.startsWith("/admin/setup"));
    expect(logged.length).toBeGreaterThan(0);
    expect(JSON.stringify(logged)).not.toContain(token);

    const wrong = await client.post("/api/auth/setup", {
      token: "wrong",
      email: "x@example.com",
      password: "long-enough-1",
    });
    expect(wrong.status).toBe(403);
    const short = await client.post("/api/auth/setup", { token, email: "x@example.com", password: "short" });
    expect(short.status).toBe(400);

    const created = await client.post("/api/auth/setup", {
      token,
      email: "first@example.com",
      password: "long-enough-1",
    });
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

  it("wrong tokens are counted per address before anything is hashed: five, then 429; another address still sets up", async () => {
    server = await startServer({ ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined });
    const token = new URL(String(server.logs.find((l) => typeof l.setupLink === "string")!.setupLink)).searchParams.get(
      "token",
    )!;
    const setup = (body: Record<string, string>, address: string) =>
      new ApiClient(server!.url).post("/api/auth/setup", body, { "X-Forwarded-For": address });
    const guess = { email: "guess@example.com", password: "long-enough-password" };
    for (let i = 0; i < 5; i++) {
      const wrong = await setup({ ...guess, token: `guess-${i}` }, "192.0.2.40");
      expect(wrong.status).toBe(403);
      expect(wrong.json.error).toBe("This setup link is invalid or has already been used");
    }
    // A bad e-mail or password is no guess at the token: 400, not counted.
    expect((await setup({ token, email: "owner@example.com", password: "short" }, "192.0.2.41")).status).toBe(400);
    const blockedAt = Date.now();
    const blocked = await setup({ ...guess, token }, "192.0.2.40");
    expect(blocked.status).toBe(429);
    expect(blocked.json.error).toMatch(/^Too many setup attempts\. Try again in \d+ minutes?\.$/);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(800);
    // The form is throttled with the same counter, and says so.
    const form = await fetch(`${server.url}/admin/setup?token=${token}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": "192.0.2.40" },
      body: new URLSearchParams({
        token,
        email: "owner@example.com",
        password: "the-owners-password",
        confirm: "the-owners-password",
      }),
      redirect: "manual",
    });
    expect(form.status).toBe(429);
    // The same window, less the whole seconds that passed between the two answers.
    const waited = Number(blocked.headers.get("retry-after")) - Number(form.headers.get("retry-after"));
    expect(waited).toBeGreaterThanOrEqual(0);
    expect(waited).toBeLessThanOrEqual(Math.ceil((Date.now() - blockedAt) / 1000));
    expect(await form.text()).toContain("Too many setup attempts");

    const owner = await setup({ token, email: "owner@example.com", password: "the-owners-password" }, "192.0.2.41");
    expect(owner.status).toBe(201);
  });

  it("once an administrator exists, setup is closed: a 403 saying so, never hashed, and throttled per address", async () => {
    server = await startServer();
    const setup = (address: string) =>
      new ApiClient(server!.url).post(
        "/api/auth/setup",
        { token: "any-token-at-all", email: "second@example.com", password: "long-enough-password" },
        { "X-Forwarded-For": address },
      );
    for (let i = 0; i < 5; i++) {
      const closed = await setup("192.0.2.50");
      expect(closed.status).toBe(403);
      expect(closed.json.error).toBe("Setup is closed: an administrator already exists. Sign in instead.");
    }
    const blocked = await setup("192.0.2.50");
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(800);
    expect((await setup("192.0.2.51")).status).toBe(403);
    // Setup has a counter of its own: the owner still signs in from that address.
    await new ApiClient(server.url).signIn(TEST_ADMIN, { "X-Forwarded-For": "192.0.2.50" });
  });
});
