import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Connection } from "~/server/db/db.server";
import { createTestDatabase } from "../support/backend";
import { ApiClient, startServer, type TestServer } from "../support/server";

/**
 * Events with no request to wait for (ADR 067), on two server processes
 * sharing one database: a post scheduled a few seconds ahead fires
 * `post.published` within 10 s of its time, once; a post saved public fires
 * it once however often it is saved again; a message fires
 * `contact.received` with its id, name and e-mail. Each dispatch is logged
 * ("event dispatched") by the process that ran it, and is one job.
 */

let database: { url: string; drop: () => Promise<void> };
let servers: TestServer[] = [];
let admin: ApiClient;
let connection: Connection;

beforeAll(async () => {
  database = await createTestDatabase();
  const first = await startServer({ DATABASE_URL: database.url });
  servers = [first, await startServer({ DATABASE_URL: database.url })];
  admin = new ApiClient(first.url);
  await admin.signIn();
  connection = connect(
    database.url.startsWith("postgres")
      ? { kind: "postgres", url: database.url }
      : { kind: "sqlite", file: database.url },
  );
}, 60_000);
afterAll(async () => {
  await connection?.db.destroy();
  for (const server of servers) await server.stop();
  await database?.drop();
});

const post = (slug: string, publishDate: string, published = true) => ({
  title: `Post ${slug}`,
  slug,
  excerpt: "Short summary",
  content: "Body",
  category: "Cloud",
  readTime: "3 min read",
  published,
  publishDate,
  headerImage: null,
});

/** Every dispatch of `event` about `id`, in either process's log, with when it was logged. */
const dispatches = (event: string, id: string) =>
  servers.flatMap((server) =>
    server.logs.filter(
      (line) =>
        line.msg === "event dispatched" &&
        line.event === event &&
        (line.data as { id?: string } | undefined)?.id === id,
    ),
  );

const dispatchJobs = (key: string) =>
  connection.db.selectFrom("jobs").selectAll().where("idempotency_key", "=", `event:${key}`).execute();

describe("events", () => {
  it("fires post.published for a scheduled post within 10 s of its time with no request, once across two processes", async () => {
    const publishDate = new Date(Date.now() + 3000).toISOString();
    const created = await admin.post("/api/admin/posts", post("scheduled", publishDate));
    expect(created.status).toBe(201);
    const id = (created.json as { id: string }).id;
    expect(dispatches("post.published", id)).toHaveLength(0);

    await expect.poll(() => dispatches("post.published", id).length, { timeout: 15_000, interval: 100 }).toBe(1);
    const [line] = dispatches("post.published", id);
    expect(Number(line!.time) - Date.parse(publishDate)).toBeLessThan(10_000);
    expect(Number(line!.time)).toBeGreaterThanOrEqual(Date.parse(publishDate));
    // Both processes had their chance: still once.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(dispatches("post.published", id)).toHaveLength(1);
    const jobs = await dispatchJobs(`post.published:${id}:${publishDate}`);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.status).toBe("done");
    expect(JSON.parse(jobs[0]!.payload)).toMatchObject({
      event: "post.published",
      data: { id, slug: "scheduled", title: "Post scheduled" },
    });
  }, 30_000);

  it("fires post.published once when a post is saved public, not again when it is saved again, and not for a draft", async () => {
    const past = new Date(Date.now() - 60_000).toISOString();
    const created = await admin.post("/api/admin/posts", post("at-once", past));
    const id = (created.json as { id: string }).id;
    const saved = await admin.put(`/api/admin/posts/${id}`, { ...post("at-once", past), title: "Edited" });
    expect(saved.status).toBe(200);
    const draft = await admin.post("/api/admin/posts", post("a-draft", past, false));
    const draftId = (draft.json as { id: string }).id;

    await expect.poll(() => dispatches("post.published", id).length, { timeout: 10_000, interval: 100 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(dispatches("post.published", id)).toHaveLength(1);
    expect(dispatches("post.published", draftId)).toHaveLength(0);
    expect(await dispatchJobs(`post.published:${draftId}:${past}`)).toHaveLength(0);
  }, 30_000);

  it("fires contact.received with the message's id, name and e-mail", async () => {
    const sent = await new ApiClient(servers[1]!.url).post("/api/contact", {
      name: "Ada Lovelace",
      email: "ada@example.com",
      phone: "",
      preferredContact: "email",
      service: "systems",
      message: "Please get in touch about our analytical engine.",
    });
    expect(sent.status).toBe(201);
    const stored = (await admin.get("/api/admin/messages")).json as Array<{ id: string; name: string }>;
    const message = stored.find((m) => m.name === "Ada Lovelace")!;
    await expect.poll(() => dispatches("contact.received", message.id).length, { timeout: 10_000 }).toBe(1);
    const jobs = await connection.db.selectFrom("jobs").selectAll().where("kind", "=", "event.dispatch").execute();
    const payloads = jobs.map((job) => JSON.parse(job.payload) as { event: string; data: Record<string, unknown> });
    expect(payloads.filter((p) => p.event === "contact.received")).toEqual([
      expect.objectContaining({ data: { id: message.id, name: "Ada Lovelace", email: "ada@example.com" } }),
    ]);
  }, 30_000);
});
