import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultContent } from "~/content/site-content-defaults";
import { createTestDatabase, TEST_BACKEND } from "../support/backend";
import { ApiClient, startServer, type TestServer } from "../support/server";

/**
 * Site content across processes (issue 30, ADR 053): a page's content
 * published through one process is what every other process shows on its
 * next request, though each keeps the published documents in memory between
 * content versions and had the page in its page cache. On PostgreSQL this is
 * the load-balanced deployment.
 */
describe(`site content on two app processes, one ${TEST_BACKEND} database`, () => {
  let a: TestServer;
  let b: TestServer;
  let dropDatabase: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    dropDatabase = database.drop;
    [a, b] = await Promise.all([
      startServer({ DATABASE_URL: database.url, SEED_SAMPLE_POSTS: "false" }),
      startServer({ DATABASE_URL: database.url, SEED_SAMPLE_POSTS: "false" }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await dropDatabase?.();
  });

  it("a publish through A shows on B's next request, and a restore through B on A's", async () => {
    const onB = new ApiClient(b.url);
    await onB.get("/about");
    const cached = await onB.get("/about");
    expect(cached.headers.get("x-cache")).toBe("hit");
    expect(cached.text).toContain("Founder and CEO");

    const adminA = new ApiClient(a.url);
    await adminA.signIn();
    const doc = defaultContent("about");
    doc.team.members[0]!.name = "Ana Ruiz";
    doc.team.members[0]!.role = "Founder";
    expect((await adminA.put("/api/admin/content/about", doc)).status).toBe(200);

    const after = await onB.get("/about");
    expect(after.headers.get("x-cache")).not.toBe("hit");
    expect(after.text).toContain("Ana Ruiz");
    expect(after.text).not.toContain("Founder and CEO");

    const adminB = new ApiClient(b.url);
    await adminB.signIn();
    expect((await adminB.get("/api/admin/content/about")).json).toEqual(doc);
    const { revisions } = (await adminB.get("/api/admin/content/about/revisions")).json;
    const original = (await adminB.get(`/api/admin/content/about/revisions/${revisions.at(-1).id}`)).json;
    expect((await adminB.put("/api/admin/content/about", original.document)).status).toBe(200);

    const onA = new ApiClient(a.url);
    const restored = await onA.get("/about");
    expect(restored.text).toContain("Founder and CEO");
    expect(restored.text).not.toContain("Ana Ruiz");
  });
});
