import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiClient, startServer, TEST_ADMIN, type TestServer } from "../support/server";
import { resolveDatabase } from "~/server/platform/config.server";
import { connect, type Connection } from "~/server/db/db.server";

/**
 * Issue 28, finding 2 (ADR 046): what a stolen session cookie alone (2FA off)
 * can no longer do. Setting up or turning off 2FA, inviting and removing an
 * administrator carry the current password as the JSON field `password`
 * (the same on the screens' forms): missing is 400, wrong is 403, and nothing
 * changes; wrong ones count on the sign-in throttle. Turning 2FA on ends the
 * account's other sessions; removing an administrator withdraws the
 * invitations they made. Over HTTP against the built server, on the backend
 * under test.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const COLLEAGUE_PASSWORD = "the-colleagues-password";

let server: TestServer;
let database: Connection;

beforeAll(async () => {
  server = await startServer();
  database = connect(resolveDatabase(server.databaseUrl, ROOT));
});
afterAll(async () => {
  await database?.db.destroy();
  await server?.stop();
});

/** Each test starts with no counted attempts, no sessions and 2FA off. */
beforeEach(async () => {
  await database.db.deleteFrom("rate_limits").execute();
  await database.db.deleteFrom("sessions").execute();
  await database.db
    .updateTable("admin_users")
    .set({ totp_secret: null, totp_pending_secret: null, totp_enabled_at: null, totp_last_step: null })
    .execute();
});

let addresses = 0;
const freshAddress = () => ({ "X-Forwarded-For": `203.0.113.${++addresses % 250}` });

async function signedIn(credentials = TEST_ADMIN) {
  const client = new ApiClient(server.url);
  await client.signIn(credentials, freshAddress());
  return client;
}

const ownerRow = () =>
  database.db
    .selectFrom("admin_users")
    .select(["id", "totp_secret", "totp_pending_secret"])
    .where("email", "=", TEST_ADMIN.email)
    .executeTakeFirstOrThrow();

const inviteRows = (email: string) =>
  database.db.selectFrom("admin_invites").select(["id", "revoked_at"]).where("email", "=", email).execute();

const adminExists = async (id: string) =>
  (await database.db.selectFrom("admin_users").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;

const totpCode = (secret: string, timestamp = Date.now()) =>
  new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp });

/** Waits out the last 3 s of a time step, so a code computed now is checked in the same step. */
async function awayFromStepEnd() {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < 3000) await sleep(left + 50);
}

/** Turns 2FA on for the owner through `client` (with the password, as the contract asks). */
async function turnOnTwoFactor(client: ApiClient) {
  const setup = await client.post("/api/auth/2fa/setup", { password: TEST_ADMIN.password });
  expect(setup.status).toBe(200);
  await awayFromStepEnd();
  const enabled = await client.post("/api/auth/2fa/enable", { code: totpCode(setup.json.secret as string) });
  expect(enabled.status).toBe(200);
}

const tokenOf = (link: string) => new URL(link).pathname.split("/").pop()!;

/** Invites `email` as `inviter` and accepts the link: the new administrator's id and signed-in client. */
async function addAdministrator(inviter: ApiClient, email: string, inviterPassword = TEST_ADMIN.password) {
  const invited = await inviter.post("/api/admin/invites", { email, password: inviterPassword });
  expect(invited.status).toBe(201);
  const client = new ApiClient(server.url);
  const joined = await client.post(
    "/api/auth/invite",
    { token: tokenOf(invited.json.link), name: "Colleague", password: COLLEAGUE_PASSWORD },
    freshAddress(),
  );
  expect(joined.status).toBe(201);
  const row = await database.db
    .selectFrom("admin_users")
    .select("id")
    .where("email", "=", email)
    .executeTakeFirstOrThrow();
  return { id: row.id, client };
}

describe("with only the session cookie, the four sensitive actions change nothing", () => {
  it("POST /api/auth/2fa/setup: no password 400, wrong 403, no secret made; right: 200 and a pending secret", async () => {
    const thief = await signedIn();
    const missing = await thief.post("/api/auth/2fa/setup");
    expect(missing.status).toBe(400);
    expect(missing.json.error).toMatch(/password/);
    expect((await thief.post("/api/auth/2fa/setup", { password: "" })).status).toBe(400);
    const wrong = await thief.post("/api/auth/2fa/setup", { password: "not-the-password" });
    expect(wrong.status).toBe(403);
    expect(wrong.json).toEqual({ error: "The password is not correct" });
    expect(await ownerRow()).toMatchObject({ totp_secret: null, totp_pending_secret: null });

    // The stolen-cookie sequence: with no setup, /enable turns nothing on and hands out no recovery codes.
    const enable = await thief.post("/api/auth/2fa/enable", { code: "123456" });
    expect(enable.status).toBe(400);
    expect(enable.json).not.toHaveProperty("recoveryCodes");
    expect((await new ApiClient(server.url).post("/api/auth/login", TEST_ADMIN, freshAddress())).status).toBe(200);

    const right = await thief.post("/api/auth/2fa/setup", { password: TEST_ADMIN.password });
    expect(right.status).toBe(200);
    expect(right.json.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect((await ownerRow()).totp_pending_secret).not.toBeNull();
  });

  it("POST /api/auth/2fa/disable: no password 400, wrong 403, 2FA stays on; right: 204 and off", async () => {
    const owner = await signedIn();
    await turnOnTwoFactor(owner);
    expect((await owner.post("/api/auth/2fa/disable")).status).toBe(400);
    // An empty password is a missing one: refused before it is checked or counted.
    expect((await owner.post("/api/auth/2fa/disable", { password: "" })).status).toBe(400);
    expect((await owner.post("/api/auth/2fa/disable", { code: "123456" })).status).toBe(400);
    expect((await owner.post("/api/auth/2fa/disable", { password: "not-the-password" })).status).toBe(403);
    expect((await ownerRow()).totp_secret).not.toBeNull();
    expect((await owner.post("/api/auth/2fa/disable", { password: TEST_ADMIN.password })).status).toBe(204);
    expect((await ownerRow()).totp_secret).toBeNull();
  });

  it("POST /api/admin/invites: no password 400, wrong 403, no invitation made; right: 201 and a link", async () => {
    const thief = await signedIn();
    const email = "thiefs-account@example.com";
    const missing = await thief.post("/api/admin/invites", { email });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toMatch(/password/);
    expect((await thief.post("/api/admin/invites", { email, password: "not-the-password" })).status).toBe(403);
    expect(await inviteRows(email)).toEqual([]);
    const right = await thief.post("/api/admin/invites", { email, password: TEST_ADMIN.password });
    expect(right.status).toBe(201);
    expect(right.json.link).toMatch(/\/admin\/invite\//);
    expect(await inviteRows(email)).toHaveLength(1);
  });

  it("DELETE /api/admin/administrators/{id} (a JSON body): no password 400, wrong 403, they stay; right: 204 and gone", async () => {
    const owner = await signedIn();
    const { id } = await addAdministrator(owner, "to-remove@example.com");
    const path = `/api/admin/administrators/${id}`;
    const missing = await owner.delete(path);
    expect(missing.status).toBe(400);
    expect((await owner.request("DELETE", path, {})).status).toBe(400);
    const wrong = await owner.request("DELETE", path, { password: "not-the-password" });
    expect(wrong.status).toBe(403);
    expect(wrong.json).toEqual({ error: "The password is not correct" });
    expect(await adminExists(id)).toBe(true);
    expect((await owner.request("DELETE", path, { password: TEST_ADMIN.password })).status).toBe(204);
    expect(await adminExists(id)).toBe(false);
  });

  it("the screens' forms ask the same: without the password or with a wrong one, nothing changes", async () => {
    const thief = await signedIn();
    const { id } = await addAdministrator(thief, "form-target@example.com");
    const form = (pathname: string, fields: Record<string, string>) =>
      fetch(`${server.url}${pathname}`, {
        method: "POST",
        redirect: "manual",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: thief.cookie, ...freshAddress() },
        body: new URLSearchParams(fields),
      });
    const cases: Array<[string, Record<string, string>]> = [
      ["/admin/account", { intent: "setup-2fa" }],
      ["/admin/administrators", { intent: "invite", email: "form-thief@example.com" }],
      ["/admin/administrators", { intent: "remove", id }],
    ];
    for (const [pathname, fields] of cases) {
      const missing = await form(pathname, fields);
      expect(missing.status, `${fields.intent} without a password`).toBe(400);
      expect(await missing.text()).toContain("Enter your password.");
      const wrong = await form(pathname, { ...fields, password: "not-the-password" });
      expect(wrong.status, `${fields.intent} with a wrong password`).toBe(403);
      expect(await wrong.text()).toContain("The password is not correct");
    }
    expect((await ownerRow()).totp_pending_secret).toBeNull();
    expect(await inviteRows("form-thief@example.com")).toEqual([]);
    expect(await adminExists(id)).toBe(true);

    expect((await form("/admin/administrators", { intent: "remove", id, password: TEST_ADMIN.password })).status).toBe(
      200,
    );
    expect(await adminExists(id)).toBe(false);
  });

  it("wrong passwords count on the sign-in throttle: after five, even the right one is 429, and so is signing in", async () => {
    const thief = await signedIn();
    const guesses = [
      () => thief.post("/api/auth/2fa/setup", { password: "guess-1" }, freshAddress()),
      () => thief.post("/api/admin/invites", { email: "x@example.com", password: "guess-2" }, freshAddress()),
      () => thief.post("/api/auth/2fa/disable", { password: "guess-3" }, freshAddress()),
      () => thief.request("DELETE", `/api/admin/administrators/${crypto.randomUUID()}`, { password: "guess-4" }),
      () => thief.post("/api/auth/2fa/setup", { password: "guess-5" }, freshAddress()),
    ];
    for (const guess of guesses) expect((await guess()).status).toBe(403);
    const blocked = await thief.post("/api/auth/2fa/setup", { password: TEST_ADMIN.password }, freshAddress());
    expect(blocked.status).toBe(429);
    expect(blocked.json.error).toMatch(/^Too many sign-in attempts/);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(800);
    expect((await ownerRow()).totp_pending_secret).toBeNull();
    expect((await new ApiClient(server.url).post("/api/auth/login", TEST_ADMIN, freshAddress())).status).toBe(429);
  });
});

describe("turning 2FA on", () => {
  it("ends the account's other sessions; the one that turned it on stays", async () => {
    const here = await signedIn();
    const elsewhere = await signedIn();
    const colleague = await addAdministrator(here, "bystander@example.com");
    expect((await elsewhere.get("/api/auth/me")).status).toBe(200);
    await turnOnTwoFactor(here);
    expect((await elsewhere.get("/api/auth/me")).status).toBe(401);
    expect((await elsewhere.get("/api/admin/posts")).status).toBe(401);
    expect((await here.get("/api/auth/me")).status).toBe(200);
    // Only this account's: another administrator stays signed in.
    expect((await colleague.client.get("/api/auth/me")).status).toBe(200);
    expect(
      (await here.request("DELETE", `/api/admin/administrators/${colleague.id}`, { password: TEST_ADMIN.password }))
        .status,
    ).toBe(204);
  });

  it("on the Account screen too", async () => {
    const here = await signedIn();
    const elsewhere = await signedIn();
    const form = (fields: Record<string, string>) =>
      fetch(`${server.url}/admin/account`, {
        method: "POST",
        redirect: "manual",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: here.cookie },
        body: new URLSearchParams(fields),
      });
    const setup = await form({ intent: "setup-2fa", password: TEST_ADMIN.password });
    expect(setup.status).toBe(200);
    // The secret is stored encrypted (ADR 047); the screen shows it in groups of four.
    expect((await ownerRow()).totp_pending_secret).toMatch(/^aes-256-gcm:/);
    const shown = /data-testid="totp-secret"[^>]*>([A-Z2-7 ]+)</.exec(await setup.text());
    expect(shown).not.toBeNull();
    await awayFromStepEnd();
    const enabled = await form({ intent: "enable-2fa", code: totpCode(shown![1]!.replaceAll(" ", "")) });
    expect(enabled.status).toBe(200);
    expect(await enabled.text()).toContain("Your other sessions were signed out.");
    expect((await elsewhere.get("/api/auth/me")).status).toBe(401);
    expect((await here.get("/api/auth/me")).status).toBe(200);
  });
});

describe("removing an administrator", () => {
  it("withdraws the invitations they made: the links no longer work, and the removed one cannot come back", async () => {
    const owner = await signedIn();
    const { id, client: leaving } = await addAdministrator(owner, "leaving@example.com");
    // Before being removed, they invite a way back in, and someone else.
    const wayBack = await leaving.post("/api/admin/invites", {
      email: "leaving-again@example.com",
      password: COLLEAGUE_PASSWORD,
    });
    const friend = await leaving.post("/api/admin/invites", {
      email: "their-friend@example.com",
      password: COLLEAGUE_PASSWORD,
    });
    expect([wayBack.status, friend.status]).toEqual([201, 201]);
    // An invitation of the owner's is not theirs: it stays.
    const owners = await owner.post("/api/admin/invites", {
      email: "owners-guest@example.com",
      password: TEST_ADMIN.password,
    });

    expect(
      (await owner.request("DELETE", `/api/admin/administrators/${id}`, { password: TEST_ADMIN.password })).status,
    ).toBe(204);

    for (const link of [wayBack.json.link as string, friend.json.link as string]) {
      const token = tokenOf(link);
      const accepted = await new ApiClient(server.url).post("/api/auth/invite", {
        token,
        name: "Back again",
        password: "long-enough-password",
      });
      expect(accepted.status).toBe(403);
      expect(accepted.json.reason).toBe("revoked");
      const page = await fetch(`${server.url}/admin/invite/${token}`);
      expect(page.status).toBe(410);
      expect(await page.text()).toContain("Invitation withdrawn");
    }
    expect((await inviteRows("leaving-again@example.com"))[0]!.revoked_at).not.toBeNull();
    const pending = ((await owner.get("/api/admin/administrators")).json.invites as Array<{ email: string }>).map(
      (invite) => invite.email,
    );
    expect(pending).toContain("owners-guest@example.com");
    expect(pending).not.toContain("leaving-again@example.com");
    expect(pending).not.toContain("their-friend@example.com");
    expect((await fetch(`${server.url}/admin/invite/${tokenOf(owners.json.link as string)}`)).status).toBe(200);
    await expect(
      new ApiClient(server.url).signIn({ email: "leaving-again@example.com", password: "long-enough-password" }),
    ).rejects.toThrow(/401/);
  });
});
