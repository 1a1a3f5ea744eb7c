import SqliteDatabase from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, TEST_BACKEND } from "../support/backend";
import { ApiClient, startServer, type TestServer } from "../support/server";

/**
 * Issue 13: kill -9 of the server during a stream of writes loses nothing it
 * acknowledged. Admin post creates and updates and contact messages go out
 * from several concurrent writers; the moment the client has received the
 * KILL_AFTER-th acknowledgement (201 or 200), the process gets SIGKILL while
 * the other writers' requests are still out. A new server on the same
 * database must then start, and hold every acknowledged write with its
 * content. A request that got no answer may or may not have landed; if it
 * did, it landed whole.
 *
 * The kill is triggered by a count of acknowledgements, not by a timer, so
 * what is checked does not depend on how fast the machine is.
 */
const KILL_AFTER = 300;
const POST_WRITERS = 6;
const CONTACT_WRITERS = 6;
/** Each writer stops by itself after this many requests even if the kill never came. */
const MAX_REQUESTS_PER_WRITER = 400;
const UPDATES_PER_POST = 3;

interface PostBody {
  title: string;
  slug: string;
  excerpt: string;
  content: string;
  category: string;
  readTime: string;
  published: boolean;
  publishDate: string;
  headerImage: null;
}

interface PostRecord {
  slug: string;
  id?: string;
  /** The version the server last acknowledged (a 201 for the create, 200 for an update). */
  acked?: PostBody;
  /** A version sent whose answer never came: it may or may not be stored. */
  unanswered?: PostBody;
}

interface ContactBody {
  name: string;
  email: string;
  phone: string;
  preferredContact: "email" | "phone" | "text";
  service: "media" | "systems" | "research";
  message: string;
}

interface ContactRecord {
  body: ContactBody;
  acked: boolean;
}

function postBody(slug: string, version: number): PostBody {
  return {
    title: `Durable ${slug} v${version}`,
    slug,
    excerpt: `Excerpt of ${slug}, version ${version}.`,
    content: `## ${slug}, version ${version}\n\n${`Written during a stream of writes, version ${version}. `.repeat(20 + version * 10).trim()}`,
    category: "Operations",
    readTime: "2 min read",
    published: version % 2 === 0,
    publishDate: new Date(Date.UTC(2026, 0, 1, 0, version)).toISOString(),
    headerImage: null,
  };
}

function contactBody(i: number): ContactBody {
  return {
    name: `Visitor ${i}`,
    email: `visitor-${i}@example.com`,
    phone: i % 2 === 0 ? "" : `+1 805 555 ${String(i % 10_000).padStart(4, "0")}`,
    preferredContact: (["email", "phone", "text"] as const)[i % 3]!,
    service: (["media", "systems", "research"] as const)[i % 3]!,
    message: `Message ${i}: ${"Please get back to me about the project. ".repeat(1 + (i % 7)).trim()}`,
  };
}

/**
 * A client address of its own for each message (198.18.0.0/15, set aside for
 * benchmarks), so the per-address contact throttle never answers 429. The
 * server believes X-Forwarded-For from loopback (TRUST_PROXY=loopback).
 */
function clientAddress(i: number): string {
  return `198.${18 + ((i >> 16) & 1)}.${(i >> 8) & 255}.${i & 255}`;
}

/** Every item of an admin list, whether or not the server pages it (limit/offset). */
async function listAll<T extends { id: string }>(client: ApiClient, pathname: string): Promise<T[]> {
  const items = new Map<string, T>();
  for (let offset = 0; ; offset += 100) {
    const page = await client.get(`${pathname}?limit=100&offset=${offset}`);
    expect(page.status, page.text).toBe(200);
    const before = items.size;
    for (const item of page.json as T[]) items.set(item.id, item);
    if ((page.json as T[]).length < 100 || items.size === before) break;
  }
  return [...items.values()];
}

describe(`kill -9 during a stream of writes (${TEST_BACKEND})`, () => {
  let databaseUrl: string;
  let dropDatabase: () => Promise<void> = async () => {};
  let first: TestServer | undefined;
  let second: TestServer | undefined;

  beforeAll(async () => {
    const database = await createTestDatabase();
    databaseUrl = database.url;
    dropDatabase = database.drop;
    first = await startServer({ DATABASE_URL: databaseUrl });
  });
  afterAll(async () => {
    await first?.stop();
    await second?.stop();
    await dropDatabase();
  });

  it("keeps every acknowledged post create, post update and contact message", async () => {
    const server = first!;
    const admin = new ApiClient(server.url);
    await admin.signIn();
    const sessionCookie = admin.cookie;

    const posts: PostRecord[] = [];
    const messages: ContactRecord[] = [];
    let acknowledged = 0;
    let inFlight = 0;
    let inFlightAtKill = -1;
    let killed: Promise<void> | undefined;

    /**
     * Sends one write. Answers the status and JSON body, or undefined when no
     * answer came because the server was killed. Any other failure, and any
     * status but the expected one, fails the test.
     */
    async function send(
      method: string,
      pathname: string,
      body: unknown,
      expected: number,
      headers: Record<string, string> = {},
    ): Promise<{ status: number; json: any } | undefined> {
      inFlight++;
      try {
        let response: Response;
        try {
          response = await fetch(server.url + pathname, {
            method,
            headers: { "Content-Type": "application/json", Cookie: sessionCookie, ...headers },
            body: JSON.stringify(body),
          });
        } catch (error) {
          if (killed) return undefined;
          throw error;
        }
        if (response.status !== expected) {
          throw new Error(`${method} ${pathname}: ${response.status} ${await response.text().catch(() => "")}`);
        }
        // The status line is the acknowledgement: the write must be stored
        // even if the body never arrives.
        acknowledged++;
        if (acknowledged === KILL_AFTER) {
          inFlightAtKill = inFlight - 1;
          killed = server.kill("SIGKILL");
        }
        const json: unknown = await response.json().catch(() => undefined);
        return { status: response.status, json };
      } finally {
        inFlight--;
      }
    }

    async function postWriter(writer: number) {
      let requests = 0;
      for (let n = 0; !killed && requests < MAX_REQUESTS_PER_WRITER; n++) {
        const record: PostRecord = { slug: `durable-w${writer}-p${n}` };
        posts.push(record);
        for (let version = 0; version <= UPDATES_PER_POST && !killed; version++) {
          const body = postBody(record.slug, version);
          requests++;
          const answer =
            version === 0
              ? await send("POST", "/api/admin/posts", body, 201)
              : await send("PUT", `/api/admin/posts/${record.id}`, body, 200);
          if (!answer) {
            record.unanswered = body;
            return;
          }
          record.acked = body;
          record.id ??= (answer.json as { id?: string } | undefined)?.id;
          if (!record.id) return; // acknowledged, but the body was cut off by the kill
        }
      }
    }

    let nextMessage = 0;
    async function contactWriter() {
      for (let requests = 0; !killed && requests < MAX_REQUESTS_PER_WRITER; requests++) {
        const i = nextMessage++;
        const record: ContactRecord = { body: contactBody(i), acked: false };
        messages.push(record);
        const answer = await send("POST", "/api/contact", record.body, 201, { "X-Forwarded-For": clientAddress(i) });
        if (!answer) return;
        record.acked = true;
      }
    }

    const writers = await Promise.allSettled([
      ...Array.from({ length: POST_WRITERS }, (_, w) => postWriter(w)),
      ...Array.from({ length: CONTACT_WRITERS }, () => contactWriter()),
    ]);
    const failures = writers.flatMap((w) => (w.status === "rejected" ? [String(w.reason)] : []));
    expect(failures).toEqual([]);
    expect(killed, `the writers stopped before ${KILL_AFTER} acknowledgements`).toBeDefined();
    await killed;
    // Other writers' requests were out when the signal went.
    expect(inFlightAtKill).toBeGreaterThan(0);
    expect(acknowledged).toBeGreaterThanOrEqual(KILL_AFTER);

    second = await startServer({ DATABASE_URL: databaseUrl });
    const after = new ApiClient(second.url);
    expect((await after.get("/healthz")).status).toBe(200);
    if (TEST_BACKEND === "sqlite") {
      const file = new SqliteDatabase(databaseUrl, { readonly: true, fileMustExist: true });
      try {
        expect(file.pragma("integrity_check", { simple: true })).toBe("ok");
      } finally {
        file.close();
      }
    }
    // The session acknowledged before the kill is a write too.
    after.cookie = sessionCookie;
    expect((await after.get("/api/auth/me")).status).toBe(200);

    const stored = new Map(
      (await listAll<{ id: string; slug: string }>(after, "/api/admin/posts")).map((p) => [p.slug, p]),
    );
    const sent = new Map(posts.map((p) => [p.slug, p]));
    expect(
      [...stored.keys()].filter((slug) => !sent.has(slug)),
      "posts nobody sent",
    ).toEqual([]);
    for (const record of posts) {
      const listed = stored.get(record.slug);
      if (!record.acked) {
        // The create got no answer: absent, or present exactly as sent.
        if (listed) {
          const post = (await after.get(`/api/admin/posts/${listed.id}`)).json as PostBody;
          expect(pick(post), record.slug).toEqual(pick(record.unanswered!));
        }
        continue;
      }
      expect(listed, `acknowledged post ${record.slug} is missing`).toBeDefined();
      if (record.id) expect(listed!.id).toBe(record.id);
      const post = (await after.get(`/api/admin/posts/${listed!.id}`)).json as PostBody;
      const possible = [record.acked, record.unanswered].filter((b) => b !== undefined).map(pick);
      expect(
        possible,
        `post ${record.slug} holds neither its acknowledged version nor the unanswered one`,
      ).toContainEqual(pick(post));
    }

    const inbox = await listAll<{ id: string } & ContactBody & { phone: string | null }>(after, "/api/admin/messages");
    const byText = new Map<string, Array<(typeof inbox)[number]>>();
    for (const message of inbox) byText.set(message.message, [...(byText.get(message.message) ?? []), message]);
    const sentMessages = new Map(messages.map((m) => [m.body.message, m]));
    expect(
      inbox.filter((m) => !sentMessages.has(m.message)),
      "messages nobody sent",
    ).toEqual([]);
    expect(
      [...byText.values()].filter((copies) => copies.length > 1),
      "messages stored twice",
    ).toEqual([]);
    for (const record of messages) {
      const found = byText.get(record.body.message)?.[0];
      if (!record.acked && !found) continue;
      expect(found, `acknowledged message "${record.body.message.slice(0, 20)}" is missing`).toBeDefined();
      expect({
        name: found!.name,
        email: found!.email,
        phone: found!.phone ?? "",
        preferredContact: found!.preferredContact,
        service: found!.service,
        message: found!.message,
      }).toEqual(record.body);
    }

    const ackedPosts = posts.filter((p) => p.acked).length;
    const ackedMessages = messages.filter((m) => m.acked).length;
    expect(ackedPosts).toBeGreaterThan(0);
    expect(ackedMessages).toBeGreaterThan(0);
  }, 90_000);
});

/** The fields a write sets and a read gives back unchanged. */
function pick(post: PostBody) {
  const { title, slug, excerpt, content, category, readTime, published, publishDate } = post;
  return { title, slug, excerpt, content, category, readTime, published, publishDate };
}
