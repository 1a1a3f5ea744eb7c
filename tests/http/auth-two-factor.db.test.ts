import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TEST_BACKEND } from "../support/backend";
import { ApiClient, startServer, TEST_ADMIN, type TestServer } from "../support/server";
import { resolveDatabase } from "~/server/platform/config.server";
import { KEY_FILE_NAME } from "~/server/identity/two-factor-key.server";
import { connect, type Connection } from "~/server/db/db.server";

/**
 * Two-factor sign-in (docs/product/contract.md#two-factor-sign-in, ADR 037), the password change and the
 * list of sessions, over HTTP against the built server, on the backend
 * under test. Codes are computed here with otpauth from the secret the API
 * hands out.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const STEP_MS = 30_000;

const totpCode = (secret: string, timestamp = Date.now()) =>
  new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp });

/** Waits out the last 3 s of a time step, so a code computed now is checked in the same step. */
async function awayFromStepEnd() {
  const left = STEP_MS - (Date.now() % STEP_MS);
  if (left < 3000) await sleep(left + 50);
}

function tally(answers: Array<{ status: number }>): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

function runAdminCli(server: TestServer, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, "build/server/cli.js"), ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, DATABASE_URL: server.databaseUrl, LOG_LEVEL: "silent" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, output }));
  });
}

/** A server of its own for the describe block, and a direct connection to its database. */
function serverWithDatabase(env: Record<string, string | undefined> = {}) {
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

let addressCounter = 0;
/** A new client address per request, so the per-address throttles stay out of the way unless tested. */
const freshAddress = () => ({
  "X-Forwarded-For": `198.19.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`,
});

const login = (server: TestServer, body: Record<string, unknown>, headers = freshAddress()) =>
  new ApiClient(server.url).post("/api/auth/login", body, headers);

/** Turns 2FA on for the test administrator through the API; answers the secret and the recovery codes. */
async function enableTwoFactor(server: TestServer) {
  const client = new ApiClient(server.url);
  await client.signIn(TEST_ADMIN, freshAddress());
  const setup = await client.post("/api/auth/2fa/setup", { password: TEST_ADMIN.password });
  expect(setup.status).toBe(200);
  const secret = setup.json.secret as string;
  await awayFromStepEnd();
  const enabled = await client.post("/api/auth/2fa/enable", { code: totpCode(secret) });
  expect(enabled.status).toBe(200);
  return { client, secret, recoveryCodes: enabled.json.recoveryCodes as string[] };
}

describe("two-factor sign-in", () => {
  const running = serverWithDatabase();
  const server = () => running.server;

  /** Each test starts with 2FA off, no counted attempts and no sessions. */
  beforeEach(async () => {
    const { db } = running.database;
    await db.deleteFrom("rate_limits").execute();
    await db.deleteFrom("sessions").execute();
    await db
      .updateTable("admin_users")
      .set({
        totp_secret: null,
        totp_pending_secret: null,
        totp_enabled_at: null,
        totp_last_step: null,
        recovery_codes: null,
      })
      .execute();
  });

  /** As if the time step of the last accepted code had passed: the next code is not a replay. */
  const stepPassed = () => running.database.db.updateTable("admin_users").set({ totp_last_step: 0 }).execute();

  it("setup answers a SHA-1, 6-digit, 30 s secret; enable needs a right code and answers 10 recovery codes", async () => {
    const client = new ApiClient(server().url);
    expect((await client.post("/api/auth/2fa/setup", { password: TEST_ADMIN.password })).status).toBe(401);
    await client.signIn(TEST_ADMIN, freshAddress());
    const setup = await client.post("/api/auth/2fa/setup", { password: TEST_ADMIN.password });
    expect(setup.status).toBe(200);
    expect(Object.keys(setup.json).sort()).toEqual(["otpauthUrl", "secret"]);
    const secret = setup.json.secret as string;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(setup.json.otpauthUrl as string);
    expect(url.protocol).toBe("otpauth:");
    expect(url.host).toBe("totp");
    expect(url.searchParams.get("secret")).toBe(secret);
    expect(url.searchParams.get("algorithm")).toBe("SHA1");
    expect(url.searchParams.get("digits")).toBe("6");
    expect(url.searchParams.get("period")).toBe("30");
    expect(decodeURIComponent(url.pathname)).toContain(TEST_ADMIN.email);

    // Not on yet: sign-in is unchanged until a code confirms the secret.
    expect((await login(server(), TEST_ADMIN)).status).toBe(200);

    await awayFromStepEnd();
    const wrong = await client.post("/api/auth/2fa/enable", {
      code: "000000" === totpCode(secret) ? "111111" : "000000",
    });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error).toBeTruthy();
    expect((await client.post("/api/auth/2fa/enable", { nope: 1 })).status).toBe(400);

    const enabled = await client.post("/api/auth/2fa/enable", { code: totpCode(secret) });
    expect(enabled.status).toBe(200);
    const codes = enabled.json.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    // 120 bits each (ADR 047): 24 letters of a 32-letter alphabet, in six groups of four.
    for (const code of codes) expect(code).toMatch(/^(?:[0-9a-z]{4}-){5}[0-9a-z]{4}$/);

    // Stored salted, and the secret encrypted, with no key configured (SQLite: the site's key file; PostgreSQL: the variable).
    const row = await running.database.db
      .selectFrom("admin_users")
      .select(["recovery_codes", "totp_secret"])
      .executeTakeFirstOrThrow();
    const entries = JSON.parse(row.recovery_codes!) as string[];
    expect(entries).toHaveLength(10);
    for (const entry of entries) expect(entry).toMatch(/^salted-sha256:[\da-f]{32}:[\da-f]{64}$/);
    for (const code of codes) {
      const normalised = code.replace(/-/g, "");
      expect(row.recovery_codes).not.toContain(normalised);
      expect(row.recovery_codes).not.toContain(createHash("sha256").update(normalised).digest("hex"));
    }
    expect(row.totp_secret).toMatch(/^aes-256-gcm:[^:]+:[^:]+:[^:]+$/);
    expect(row.totp_secret).not.toContain(secret);
    if (TEST_BACKEND === "sqlite") {
      const keyFile = path.join(path.dirname(server().databaseUrl), KEY_FILE_NAME);
      expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    }

    // On: a second setup is refused (turning it off asks for the password first).
    expect((await client.post("/api/auth/2fa/setup", { password: TEST_ADMIN.password })).status).toBe(409);
    expect((await client.post("/api/auth/2fa/enable", { code: totpCode(secret) })).status).toBe(400);
  });

  it("with 2FA on: the password alone answers 401 twoFactorRequired and no cookie; with a code, 200", async () => {
    const { secret } = await enableTwoFactor(server());
    const first = await login(server(), TEST_ADMIN);
    expect(first.status).toBe(401);
    expect(first.json).toEqual({ error: expect.any(String), twoFactorRequired: true });
    expect(first.headers.get("set-cookie")).toBeNull();

    const client = new ApiClient(server().url);
    // The enabling code's step is used: the next step's code (one step of drift) signs in.
    const signedIn = await client.post(
      "/api/auth/login",
      { ...TEST_ADMIN, code: totpCode(secret, Date.now() + STEP_MS) },
      freshAddress(),
    );
    expect(signedIn.status).toBe(200);
    expect(signedIn.json).toEqual({ user: { email: TEST_ADMIN.email } });
    expect(signedIn.headers.get("set-cookie")).toMatch(/^session=/);
    expect((await client.get("/api/auth/me")).status).toBe(200);

    // A wrong code: 401, still twoFactorRequired, no cookie.
    await stepPassed();
    const current = totpCode(secret);
    const wrong = await login(server(), { ...TEST_ADMIN, code: current === "123456" ? "654321" : "123456" });
    expect(wrong.status).toBe(401);
    expect(wrong.json.twoFactorRequired).toBe(true);
    expect(wrong.headers.get("set-cookie")).toBeNull();
  });

  it("a wrong password answers exactly as on an account without 2FA, code or not", async () => {
    const unknownAccount = await login(server(), { email: "nobody@example.com", password: "wrong-password" });
    const withoutTwoFactor = await login(server(), { ...TEST_ADMIN, password: "wrong-password" });
    const { secret } = await enableTwoFactor(server());
    const withTwoFactor = await login(server(), { ...TEST_ADMIN, password: "wrong-password" });
    const withCode = await login(server(), { ...TEST_ADMIN, password: "wrong-password", code: totpCode(secret) });
    for (const answer of [unknownAccount, withTwoFactor, withCode]) {
      expect(answer.status).toBe(withoutTwoFactor.status);
      expect(answer.text).toBe(withoutTwoFactor.text);
      expect(answer.json).not.toHaveProperty("twoFactorRequired");
      expect(answer.headers.get("set-cookie")).toBeNull();
    }
  });

  it("a code is accepted once: the same code again is refused", async () => {
    const { secret } = await enableTwoFactor(server());
    const code = totpCode(secret, Date.now() + STEP_MS);
    expect((await login(server(), { ...TEST_ADMIN, code })).status).toBe(200);
    const replay = await login(server(), { ...TEST_ADMIN, code });
    expect(replay.status).toBe(401);
    expect(replay.json.twoFactorRequired).toBe(true);
    // An earlier step's code after a later one was used: refused too.
    expect((await login(server(), { ...TEST_ADMIN, code: totpCode(secret) })).status).toBe(401);
  });

  it("the same code sent five times at once signs in exactly once", async () => {
    const { secret } = await enableTwoFactor(server());
    await stepPassed();
    await awayFromStepEnd();
    const code = totpCode(secret);
    const answers = await Promise.all(Array.from({ length: 5 }, () => login(server(), { ...TEST_ADMIN, code })));
    expect(tally(answers)).toEqual({ 200: 1, 401: 4 });
  });

  it("one step of clock drift either way is accepted; two are not", async () => {
    const { secret } = await enableTwoFactor(server());
    await stepPassed();
    await awayFromStepEnd();
    const now = Date.now();
    // Two steps away first (a refusal changes nothing), then one step each way.
    expect((await login(server(), { ...TEST_ADMIN, code: totpCode(secret, now - 2 * STEP_MS) })).status).toBe(401);
    expect((await login(server(), { ...TEST_ADMIN, code: totpCode(secret, now + 2 * STEP_MS) })).status).toBe(401);
    expect((await login(server(), { ...TEST_ADMIN, code: totpCode(secret, now - STEP_MS) })).status).toBe(200);
    expect((await login(server(), { ...TEST_ADMIN, code: totpCode(secret, now + STEP_MS) })).status).toBe(200);
  });

  it("a recovery code signs in once, typed any way; the same code sent at once twice wins once", async () => {
    const { recoveryCodes } = await enableTwoFactor(server());
    const [first, second] = recoveryCodes as [string, string];
    const typed = ` ${first.toUpperCase().replace("-", " - ")} `;
    expect((await login(server(), { ...TEST_ADMIN, code: typed })).status).toBe(200);
    const again = await login(server(), { ...TEST_ADMIN, code: first });
    expect(again.status).toBe(401);
    expect(again.json.twoFactorRequired).toBe(true);

    const answers = await Promise.all(
      Array.from({ length: 4 }, () => login(server(), { ...TEST_ADMIN, code: second })),
    );
    expect(tally(answers)).toEqual({ 200: 1, 401: 3 });
    const row = await running.database.db.selectFrom("admin_users").select("recovery_codes").executeTakeFirstOrThrow();
    expect(JSON.parse(row.recovery_codes!)).toHaveLength(8);
  });

  it("codes are throttled: 5 wrong codes per account, then 429 with Retry-After even for the right one", async () => {
    const { secret } = await enableTwoFactor(server());
    await stepPassed();
    for (let i = 0; i < 5; i++) {
      const answer = await login(server(), { ...TEST_ADMIN, code: `${i}${i}${i}-wrong` });
      expect(answer.status).toBe(401);
    }
    const blocked = await login(server(), { ...TEST_ADMIN, code: totpCode(secret) });
    expect(blocked.status).toBe(429);
    expect(blocked.json.twoFactorRequired).toBe(true);
    expect(blocked.json.error).toMatch(/^Too many code attempts/);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(800);
    expect(blocked.headers.get("set-cookie")).toBeNull();
  });

  it("code guesses sent at once are reserved before they are checked: 5 are checked, the rest 429", async () => {
    const client = new ApiClient(server().url);
    await client.signIn(TEST_ADMIN, freshAddress());
    await client.post("/api/auth/2fa/setup", { password: TEST_ADMIN.password });
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => client.post("/api/auth/2fa/enable", { code: "000000" }, freshAddress())),
    );
    // (000000 is right once in a million; then one 200 and eleven others.)
    expect(tally(answers)).toEqual({ 400: 5, 429: 7 });
  });

  it("disable asks the password: wrong is 403, right is 204 and sign-in is the password alone again", async () => {
    const { client } = await enableTwoFactor(server());
    const wrong = await client.post("/api/auth/2fa/disable", { password: "wrong-password" });
    expect(wrong.status).toBe(403);
    expect(wrong.json.error).toMatch(/password/i);
    expect((await login(server(), TEST_ADMIN)).json.twoFactorRequired).toBe(true);
    const off = await client.post("/api/auth/2fa/disable", { password: TEST_ADMIN.password });
    expect(off.status).toBe(204);
    const plain = await login(server(), TEST_ADMIN);
    expect(plain.status).toBe(200);
    expect(plain.json).toEqual({ user: { email: TEST_ADMIN.email } });
    expect((await new ApiClient(server().url).post("/api/auth/2fa/disable", { password: "x" })).status).toBe(401);
  });

  it("`npm run admin -- reset-2fa EMAIL` turns it off for a lost phone (one line, exit 0; unknown e-mail exit 1)", async () => {
    await enableTwoFactor(server());
    const reset = await runAdminCli(server(), ["reset-2fa", TEST_ADMIN.email.toUpperCase()]);
    expect(reset.code).toBe(0);
    expect(reset.output.trim().split("\n")).toHaveLength(1);
    expect(reset.output).toContain(TEST_ADMIN.email);
    expect((await login(server(), TEST_ADMIN)).status).toBe(200);

    const unknown = await runAdminCli(server(), ["reset-2fa", "nobody@example.com"]);
    expect(unknown.code).toBe(1);
    expect(unknown.output.trim().split("\n")).toEqual(["No administrator with the e-mail nobody@example.com"]);
    expect((await runAdminCli(server(), ["reset-2fa"])).code).toBe(2);
  });

  it("never logs a secret, a code or a recovery code", async () => {
    const { secret, recoveryCodes } = await enableTwoFactor(server());
    const logs = JSON.stringify(server().logs);
    expect(logs).not.toContain(secret);
    for (const code of recoveryCodes) expect(logs).not.toContain(code);
  });
});

describe("two-factor secrets with TOTP_ENCRYPTION_KEY", () => {
  const key = Buffer.alloc(32, 42).toString("base64");
  const running = serverWithDatabase({ TOTP_ENCRYPTION_KEY: key });

  it("are stored AES-256-GCM encrypted, and sign-in reads them", async () => {
    const { secret } = await enableTwoFactor(running.server);
    const row = await running.database.db.selectFrom("admin_users").select("totp_secret").executeTakeFirstOrThrow();
    expect(row.totp_secret).toMatch(/^aes-256-gcm:[^:]+:[^:]+:[^:]+$/);
    expect(row.totp_secret).not.toContain(secret);
    const answer = await login(running.server, { ...TEST_ADMIN, code: totpCode(secret, Date.now() + STEP_MS) });
    expect(answer.status).toBe(200);
  });
});

describe("secrets an older version stored (ADR 047)", () => {
  /** What an older version wrote: the secret as it was, and ten 50-bit recovery codes as plain SHA-256. */
  const OLD_CODES = ["abcde-fghjk", "0123456789"].map((code) => code.replace("-", ""));
  const oldRow = (secret: string) => ({
    totp_secret: `plain:${secret}`,
    totp_enabled_at: new Date().toISOString(),
    totp_last_step: 0,
    recovery_codes: JSON.stringify(OLD_CODES.map((code) => createHash("sha256").update(code).digest("hex"))),
  });

  it("are encrypted at start, by processes starting at once, which agree on the key; old recovery codes stop working", async () => {
    const first = await startServer();
    const databaseUrl = first.databaseUrl;
    let second: TestServer | undefined;
    let third: TestServer | undefined;
    const database = connect(resolveDatabase(databaseUrl, ROOT));
    try {
      await first.kill("SIGTERM");
      const secret = new Secret({ size: 20 }).base32;
      await database.db.updateTable("admin_users").set(oldRow(secret)).execute();
      // SQLite: no key file yet either, as on a site whose first start of this version this is.
      if (TEST_BACKEND === "sqlite") fs.rmSync(path.join(path.dirname(databaseUrl), KEY_FILE_NAME));
      [second, third] = await Promise.all([
        startServer({ DATABASE_URL: databaseUrl }),
        startServer({ DATABASE_URL: databaseUrl }),
      ]);
      const row = await database.db
        .selectFrom("admin_users")
        .select(["totp_secret", "recovery_codes"])
        .executeTakeFirstOrThrow();
      expect(row.totp_secret).toMatch(/^aes-256-gcm:/);
      expect(row.totp_secret).not.toContain(secret);
      const encryptedLines = [...second.logs, ...third.logs].filter(
        (line) => line.msg === "two-factor secrets stored unencrypted were encrypted",
      );
      expect(encryptedLines.map((line) => line.secrets)).toEqual([1]);

      // Both processes read it: they have the same key.
      await awayFromStepEnd();
      expect((await login(second, { ...TEST_ADMIN, code: totpCode(secret) })).status).toBe(200);
      expect((await login(third, { ...TEST_ADMIN, code: totpCode(secret, Date.now() + STEP_MS) })).status).toBe(200);

      // The old codes are refused, and the Account screen says why and what to do.
      for (const code of OLD_CODES) {
        const refused = await login(second, { ...TEST_ADMIN, code });
        expect(refused.status).toBe(401);
        expect(refused.json.twoFactorRequired).toBe(true);
      }
      expect(JSON.parse(row.recovery_codes!)).toHaveLength(2);
      await database.db.updateTable("admin_users").set({ totp_last_step: 0 }).execute();
      const client = new ApiClient(second.url);
      expect(
        (await client.post("/api/auth/login", { ...TEST_ADMIN, code: totpCode(secret) }, freshAddress())).status,
      ).toBe(200);
      const account = await client.get("/admin/account");
      expect(account.status).toBe(200);
      // (React separates the number from the text around it with empty comments.)
      expect(account.text).toMatch(/ (?:<!-- -->)?0(?:<!-- -->)? of 10 recovery codes are unused/);
      expect(account.text).toContain("Your earlier recovery codes no longer work");
    } finally {
      await database.db.destroy();
      await Promise.all([second?.stop(), third?.stop()]);
      await first.stop();
    }
  }, 60_000);
});

describe.runIf(TEST_BACKEND === "postgres")("PostgreSQL without TOTP_ENCRYPTION_KEY (ADR 047)", () => {
  const running = serverWithDatabase({ TOTP_ENCRYPTION_KEY: undefined });

  it("turning 2FA on is refused, saying what the operator must set", async () => {
    const client = new ApiClient(running.server.url);
    await client.signIn(TEST_ADMIN, freshAddress());
    const setup = await client.post("/api/auth/2fa/setup", { password: TEST_ADMIN.password });
    expect(setup.status).toBe(409);
    expect(setup.json.error).toMatch(/TOTP_ENCRYPTION_KEY, the same key on every app process/);
    const row = await running.database.db
      .selectFrom("admin_users")
      .select(["totp_pending_secret"])
      .executeTakeFirstOrThrow();
    expect(row.totp_pending_secret).toBeNull();
  });

  it("a database holding an older version's unencrypted secret does not start without the key, in one line", async () => {
    await running.database.db
      .updateTable("admin_users")
      .set({ totp_secret: `plain:${new Secret({ size: 20 }).base32}` })
      .execute();
    try {
      await expect(
        startServer({ DATABASE_URL: running.server.databaseUrl, TOTP_ENCRYPTION_KEY: undefined }),
      ).rejects.toThrow(/TOTP_ENCRYPTION_KEY must be set: 1 administrator's two-factor secrets are stored unencrypted/);
    } finally {
      await running.database.db.updateTable("admin_users").set({ totp_secret: null }).execute();
    }
  }, 30_000);
});

describe("password change and sessions", () => {
  const running = serverWithDatabase();
  const server = () => running.server;
  const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0";
  const SAFARI =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

  beforeEach(async () => {
    await running.database.db.deleteFrom("sessions").execute();
    await running.database.db.deleteFrom("rate_limits").execute();
  });

  async function twoSessions() {
    const here = new ApiClient(server().url);
    await here.signIn(TEST_ADMIN, { "User-Agent": FIREFOX, "X-Forwarded-For": "203.0.113.10" });
    const phone = new ApiClient(server().url);
    await phone.signIn(TEST_ADMIN, { "User-Agent": SAFARI, "X-Forwarded-For": "2001:db8:20:1::20" });
    return { here, phone };
  }

  it("lists this account's sessions: browser, network (never the address), last seen, this device first", async () => {
    const { here } = await twoSessions();
    const { status, json, headers } = await here.get("/api/auth/sessions");
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toBe("no-store");
    expect(json.sessions).toEqual([
      expect.objectContaining({ browser: "Firefox on Windows", address: "203.0.113.0/24", current: true }),
      expect.objectContaining({ browser: "Safari on iPhone", address: "2001:db8:20::/48", current: false }),
    ]);
    for (const session of json.sessions) {
      expect(session.id).toMatch(/^[0-9a-f]{32}$/);
      expect(Date.parse(session.lastSeenAt)).toBeGreaterThan(Date.now() - 60_000);
    }
    // Not the key that finds a session from its cookie.
    const rows = await running.database.db.selectFrom("sessions").select("id").execute();
    for (const row of rows) expect(JSON.stringify(json)).not.toContain(row.id);
    expect((await new ApiClient(server().url).get("/api/auth/sessions")).status).toBe(401);
  });

  it("signs out one session by its id, then every other one", async () => {
    const { here, phone } = await twoSessions();
    const third = new ApiClient(server().url);
    await third.signIn(TEST_ADMIN, freshAddress());
    const listed = (await here.get("/api/auth/sessions")).json.sessions as Array<{ id: string; current: boolean }>;
    const phoneId = (await phone.get("/api/auth/sessions")).json.sessions.find(
      (s: { current: boolean }) => s.current,
    ).id;
    expect(listed.map((s) => s.id)).toContain(phoneId);

    expect((await here.delete(`/api/auth/sessions/${phoneId}`)).status).toBe(204);
    expect((await phone.get("/api/auth/me")).status).toBe(401);
    expect((await here.delete(`/api/auth/sessions/${phoneId}`)).status).toBe(404);
    expect((await here.delete("/api/auth/sessions/not-an-id")).status).toBe(404);

    expect((await here.delete("/api/auth/sessions")).status).toBe(204);
    expect((await third.get("/api/auth/me")).status).toBe(401);
    expect((await here.get("/api/auth/me")).status).toBe(200);
    expect((await here.get("/api/auth/sessions")).json.sessions).toHaveLength(1);
  });

  it("a password change asks the current one and signs out the other sessions, not this one", async () => {
    const { here, phone } = await twoSessions();
    const wrong = await here.post("/api/auth/password", {
      currentPassword: "wrong-password",
      newPassword: "x".repeat(12),
    });
    expect(wrong.status).toBe(403);
    const short = await here.post("/api/auth/password", { currentPassword: TEST_ADMIN.password, newPassword: "short" });
    expect(short.status).toBe(400);
    expect((await phone.get("/api/auth/me")).status).toBe(200);

    const newPassword = "a-new-long-password";
    const changed = await here.post("/api/auth/password", { currentPassword: TEST_ADMIN.password, newPassword });
    expect(changed.status).toBe(204);
    expect((await here.get("/api/auth/me")).status).toBe(200);
    expect((await phone.get("/api/auth/me")).status).toBe(401);
    expect((await login(server(), TEST_ADMIN)).status).toBe(401);
    expect((await login(server(), { email: TEST_ADMIN.email, password: newPassword })).status).toBe(200);
    // Back, for the tests after this one.
    await here.post("/api/auth/password", { currentPassword: newPassword, newPassword: TEST_ADMIN.password });
  });
});
