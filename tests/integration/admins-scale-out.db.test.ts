import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, TEST_BACKEND } from "../support/backend";
import { ApiClient, startServer, TEST_ADMIN, type TestServer } from "../support/server";

/**
 * ADR 038 with several app processes (docs/product/contract.md#scale-out): removing an administrator
 * through one process ends their session on every other at once: the next
 * request there is a 401, with nothing to expire or to tell; the invitations
 * they made stop working everywhere (ADR 046). On PostgreSQL this is the
 * load-balanced deployment.
 */
describe(`administrators across two app processes on one ${TEST_BACKEND} database`, () => {
  let a: TestServer;
  let b: TestServer;
  let dropDatabase: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    dropDatabase = database.drop;
    [a, b] = await Promise.all([
      startServer({ DATABASE_URL: database.url }),
      startServer({ DATABASE_URL: database.url }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await dropDatabase?.();
  });

  it("an invitation made on one is accepted on the other; removal on the first ends the session on the second", async () => {
    const owner = new ApiClient(a.url);
    await owner.signIn();
    const invited = await owner.post("/api/admin/invites", {
      email: "colleague@example.com",
      password: TEST_ADMIN.password,
    });
    expect(invited.status).toBe(201);
    const token = new URL(invited.json.link).pathname.split("/").pop()!;

    const colleague = new ApiClient(b.url);
    const joined = await colleague.post("/api/auth/invite", { token, name: "Colleague", password: "long-enough-pw" });
    expect(joined.status).toBe(201);
    expect((await colleague.get("/api/admin/posts")).status).toBe(200);
    // The colleague invites someone through B before being removed (ADR 046: withdrawn with them).
    const theirs = await colleague.post("/api/admin/invites", {
      email: "friend@example.com",
      password: "long-enough-pw",
    });
    expect(theirs.status).toBe(201);
    // Used on B: refused on A too.
    const reused = await new ApiClient(a.url).post("/api/auth/invite", {
      token,
      name: "X",
      password: "long-enough-pw",
    });
    expect(reused.json.reason).toBe("used");

    const list = await owner.get("/api/admin/administrators");
    const id = (list.json.administrators as Array<{ id: string; email: string }>).find(
      (admin) => admin.email === "colleague@example.com",
    )!.id;
    const removal = await owner.request("DELETE", `/api/admin/administrators/${id}`, { password: TEST_ADMIN.password });
    expect(removal.status).toBe(204);

    // The very next request on the other process.
    expect((await colleague.get("/api/admin/posts")).status).toBe(401);
    expect((await colleague.get("/api/auth/me")).status).toBe(401);
    // Their invitation is withdrawn, on B as well.
    const friendToken = new URL(theirs.json.link).pathname.split("/").pop()!;
    const friend = await new ApiClient(b.url).post("/api/auth/invite", {
      token: friendToken,
      name: "Friend",
      password: "long-enough-pw",
    });
    expect(friend.status).toBe(403);
    expect(friend.json.reason).toBe("revoked");

    // Both processes wrote to the one log: the join on B, the removal on A.
    const log = await new ApiClient(b.url).get("/api/admin/audit");
    expect(log.status).toBe(401);
    const entries = (await owner.get("/api/admin/audit?limit=100")).json as Array<{ action: string; target: string }>;
    expect(entries.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(["admin-invited", "admin-joined", "admin-removed"]),
    );
  });
});
