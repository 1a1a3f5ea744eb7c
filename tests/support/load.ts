// A load generator for the deployment tests (tests/integration/deploy.db.test.ts):
// a number of keep-alive connections to nginx over TLS, each sending one
// request after another, mixed reads and an administrator's writes, every
// request recorded with its outcome and every acknowledged write kept for the
// check that none was lost.
import https from "node:https";
import pg from "pg";

export interface LoadOptions {
  /** nginx's https origin. */
  url: string;
  ca: Buffer;
  durationMs: number;
  connections: number;
  /** An administrator's session cookie, for the writes. */
  cookie: string;
  /** Paths the reads ask for, at random. */
  readPaths: string[];
  /** Share of requests that write (half of them create a post, half update one this connection created). */
  writeShare: number;
  /** Names this run's posts and request ids. */
  tag: string;
  /** Runs at least durationMs, and on until this settles. */
  until?: Promise<unknown>;
  /**
   * And on until this many requests sent after `until` settled have been
   * answered (for at most a minute more): a drill's checks of what came
   * after the event need that much of it, however slowly a busy machine
   * answers, rather than a rate assumed.
   */
  afterwards?: number;
}

export interface LoadRequest {
  /** Sent as X-Request-Id; nginx's access log names it. */
  id: string;
  method: string;
  path: string;
  start: number;
  end: number;
  /** The HTTP status, or 0 when no answer came (see `error`). */
  status: number;
  error?: string;
}

/** A post this run wrote: the titles it was given, in order, and how many of them were acknowledged. */
export interface WrittenPost {
  id: string;
  slug: string;
  titles: string[];
  /** Index in `titles` of the last acknowledged write. */
  acknowledged: number;
  /** When its creation was sent, ms since the epoch. */
  createdAt: number;
}

export interface LoadResult {
  requests: LoadRequest[];
  /** Posts whose creation was acknowledged (201), with their updates. */
  posts: WrittenPost[];
}

export const isFailure = (request: LoadRequest) => request.status < 200 || request.status >= 400;

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const requests: LoadRequest[] = [];
  const posts: WrittenPost[] = [];
  let stopAt = Date.now() + options.durationMs;
  const giveUpAt = stopAt + 60_000;
  let sequence = 0;
  let held = options.until !== undefined;
  let settledAt = Number.POSITIVE_INFINITY;
  void options.until?.finally(() => {
    held = false;
    settledAt = Date.now();
    stopAt = Math.max(stopAt, settledAt);
  });
  const answeredAfter = () => requests.filter((r) => r.start > settledAt && r.end > 0).length;
  const goOn = () =>
    held ||
    Date.now() < stopAt ||
    (options.afterwards !== undefined && Date.now() < giveUpAt && answeredAfter() < options.afterwards);

  async function connection(index: number) {
    const agent = new https.Agent({ keepAlive: true, maxSockets: 1, ca: options.ca });
    const mine: WrittenPost[] = [];
    try {
      while (goOn()) {
        const n = sequence++;
        const id = `${options.tag}-${n}`;
        const roll = Math.random();
        if (roll < options.writeShare / 2 || (roll < options.writeShare && mine.length === 0)) {
          const slug = `${options.tag}-c${index}-${n}`;
          const title = `Load ${slug}`;
          const createdAt = Date.now();
          const answer = await send(agent, id, "POST", "/api/admin/posts", postBody(slug, title));
          if (answer.status === 201) {
            const created = JSON.parse(answer.body) as { id: unknown };
            const post = { id: String(created.id), slug, titles: [title], acknowledged: 0, createdAt };
            mine.push(post);
            posts.push(post);
          }
        } else if (roll < options.writeShare) {
          const post = mine[Math.floor(Math.random() * mine.length)]!;
          const title = `Load ${post.slug} v${n}`;
          post.titles.push(title);
          const answer = await send(agent, id, "PUT", `/api/admin/posts/${post.id}`, postBody(post.slug, title));
          if (answer.status === 200) post.acknowledged = post.titles.length - 1;
        } else {
          const path = options.readPaths[Math.floor(Math.random() * options.readPaths.length)]!;
          await send(agent, id, "GET", path);
        }
      }
    } finally {
      agent.destroy();
    }
  }

  function send(agent: https.Agent, id: string, method: string, path: string, body?: string) {
    const record: LoadRequest = { id, method, path, start: Date.now(), end: 0, status: 0 };
    requests.push(record);
    return new Promise<{ status: number; body: string }>((resolve) => {
      const request = https.request(
        new URL(path, options.url),
        {
          method,
          agent,
          timeout: 30_000,
          headers: {
            "X-Request-Id": id,
            ...(body === undefined
              ? { "Accept-Encoding": "gzip, br" }
              : {
                  "Content-Type": "application/json",
                  "Content-Length": Buffer.byteLength(body),
                  Cookie: options.cookie,
                }),
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => {
            record.end = Date.now();
            record.status = response.statusCode ?? 0;
            resolve({ status: record.status, body: Buffer.concat(chunks).toString() });
          });
          response.on("error", (error) => fail(error));
        },
      );
      const fail = (error: Error) => {
        if (record.end) return;
        record.end = Date.now();
        record.error = (error as NodeJS.ErrnoException).code ?? error.message;
        resolve({ status: 0, body: "" });
      };
      request.on("timeout", () => request.destroy(new Error("timed out after 30 s")));
      request.on("error", fail);
      request.end(body);
    });
  }

  await Promise.all(Array.from({ length: options.connections }, (_, i) => connection(i)));
  return { requests, posts };
}

function postBody(slug: string, title: string): string {
  return JSON.stringify({
    title,
    slug,
    excerpt: "Written under load",
    content: `Written under load as **${slug}**.`,
    category: "Operations",
    readTime: "1 min read",
    published: true,
    publishDate: new Date(Date.now() - 60_000).toISOString(),
    headerImage: null,
  });
}

export interface LoadSummary {
  requests: number;
  failed: number;
  reads: number;
  writes: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  /** Answers by status ("0" for none, with the error). */
  statuses: Record<string, number>;
}

export function summarize(requests: LoadRequest[], durationMs: number): LoadSummary {
  const times = requests.map((r) => r.end - r.start).sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return {
    requests: requests.length,
    failed: requests.filter(isFailure).length,
    reads: requests.filter((r) => r.method === "GET").length,
    writes: requests.filter((r) => r.method !== "GET").length,
    perSecond: Math.round((requests.length / durationMs) * 1000),
    p50: at(0.5),
    p99: at(0.99),
    max: times.at(-1) ?? 0,
    statuses: requests.reduce<Record<string, number>>((counts, r) => {
      const key = r.status ? String(r.status) : `0 ${r.error}`;
      counts[key] = (counts[key] ?? 0) + 1;
      return counts;
    }, {}),
  };
}

/**
 * Every acknowledged write, read back from the database: each post whose
 * creation was answered 201 exists, with the title of its last acknowledged
 * update or of a later one that was sent but not answered.
 */
export async function lostWrites(databaseUrl: string, posts: WrittenPost[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ slug: string; title: string }>(
      "select slug, title from posts where slug = any($1)",
      [posts.map((p) => p.slug)],
    );
    const titles = new Map(rows.map((row) => [row.slug, row.title]));
    const lost: string[] = [];
    for (const post of posts) {
      const title = titles.get(post.slug);
      if (title === undefined) lost.push(`${post.slug}: created (201) but missing`);
      else if (!post.titles.slice(post.acknowledged).includes(title)) {
        lost.push(`${post.slug}: title "${title}", but "${post.titles[post.acknowledged]}" was acknowledged`);
      }
    }
    return lost;
  } finally {
    await client.end();
  }
}
