import { setTimeout as sleep } from "node:timers/promises";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, TEST_BACKEND } from "../support/backend";
import { ApiClient, startServer, TEST_ADMIN, type TestServer } from "../support/server";

/**
 * ADR 037 across processes: a session signed out (or ended by a password
 * change) through one app process is refused by another on its next
 * request, and a two-factor code sent to both at once signs in once. Runs
 * on the backend under test; on PostgreSQL this is the load-balanced site.
 */
describe(`sessions and codes across two app processes on one ${TEST_BACKEND} database`, () => {
  let a: TestServer;
  let b: TestServer;
  let dropDatabase: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    dropDatabase = database.drop;
    a = await startServer({ DATABASE_URL: database.url });
    b = await startServer({ DATABASE_URL: database.url });
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await dropDatabase?.();
  });

  /** A client signed in through A, its cookie then used on B as well. */
  async function signedIn(address: string) {
    const onA = new ApiClient(a.url);
    await onA.signIn(TEST_ADMIN, { "X-Forwarded-For": address });
    const onB = new ApiClient(b.url);
    onB.cookie = onA.cookie;
    expect((await onB.get("/api/auth/me")).status).toBe(200);
    return { onA, onB };
  }

  it("a session signed out through A is refused by B at its next request", async () => {
    const laptop = await signedIn("203.0.113.1");
    const phone = await signedIn("203.0.113.2");
    const phoneId = (await phone.onB.get("/api/auth/sessions")).json.sessions.find(
      (session: { current: boolean }) => session.current,
    ).id as string;
    expect((await laptop.onA.delete(`/api/auth/sessions/${phoneId}`)).status).toBe(204);
    expect((await phone.onB.get("/api/auth/me")).status).toBe(401);
    expect((await phone.onB.get("/api/admin/posts")).status).toBe(401);
    expect((await laptop.onB.get("/api/auth/me")).status).toBe(200);

    const tablet = await signedIn("203.0.113.3");
    expect((await laptop.onA.delete("/api/auth/sessions")).status).toBe(204);
    expect((await tablet.onB.get("/api/admin/posts")).status).toBe(401);
    expect((await laptop.onB.get("/api/admin/posts")).status).toBe(200);
  });

  it("a password changed through A ends the other sessions on B at once", async () => {
    const laptop = await signedIn("203.0.113.4");
    const phone = await signedIn("203.0.113.5");
    const newPassword = "changed-on-process-a";
    expect(
      (await laptop.onA.post("/api/auth/password", { currentPassword: TEST_ADMIN.password, newPassword })).status,
    ).toBe(204);
    expect((await phone.onB.get("/api/auth/me")).status).toBe(401);
    expect((await laptop.onB.get("/api/auth/me")).status).toBe(200);
    await laptop.onA.post("/api/auth/password", { currentPassword: newPassword, newPassword: TEST_ADMIN.password });
  });

  it("one code sent to A and B at once signs in once", async () => {
    const { onA } = await signedIn("203.0.113.6");
    const secret = (await onA.post("/api/auth/2fa/setup", { password: TEST_ADMIN.password })).json.secret as string;
    const totp = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });
    if (30_000 - (Date.now() % 30_000) < 3000) await sleep(3500);
    expect((await onA.post("/api/auth/2fa/enable", { code: totp.generate() })).status).toBe(200);
    // The next step's code (one step of drift), to A and B at once, twice each.
    const code = totp.generate({ timestamp: Date.now() + 30_000 });
    const answers = await Promise.all(
      [a, b, a, b].map((server, i) =>
        new ApiClient(server.url).post(
          "/api/auth/login",
          { ...TEST_ADMIN, code },
          { "X-Forwarded-For": `203.0.113.${20 + i}` },
        ),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401, 401, 401]);
    expect((await onA.post("/api/auth/2fa/disable", { password: TEST_ADMIN.password })).status).toBe(204);
  });
});
