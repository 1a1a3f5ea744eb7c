import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, startSqliteServer, type TestServer } from "../support/server";

/**
 * Markdown renders in a child process of the server (ADR 039): content that
 * takes too long or needs too much memory costs that process, never the one
 * that answers visitors, and the renderer sees none of the site's secrets.
 */
let server: TestServer;
let admin: ApiClient;

/** The server's child processes (pids); the renderer is the only one. */
function children(pid: number): number[] {
  try {
    return execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when there is none
  }
}

/** A process's resident memory in bytes (0 once it is gone). */
function memoryOf(pid: number): number {
  try {
    const line = fs
      .readFileSync(`/proc/${pid}/status`, "utf8")
      .split("\n")
      .find((l) => l.startsWith("VmRSS:"));
    return line ? Number.parseInt(line.slice("VmRSS:".length).trim(), 10) * 1024 : 0;
  } catch {
    return 0;
  }
}

async function until<T>(read: () => T, ok: (value: T) => boolean, ms: number): Promise<T> {
  const end = Date.now() + ms;
  let value = read();
  while (!ok(value) && Date.now() < end) {
    await sleep(100);
    value = read();
  }
  return value;
}

let saved = 0;
const save = (content: string) =>
  admin.post("/api/admin/posts", { title: `Post ${++saved}`, slug: `post-${saved}`, excerpt: "e", content });

/** The slowest thing /healthz took while `work` ran (it is asked every 100 ms). */
async function healthWhile(work: Promise<unknown>): Promise<number> {
  let done = false;
  let slowest = 0;
  const probe = (async () => {
    while (!done) {
      const start = performance.now();
      const response = await fetch(`${server.url}/healthz`);
      expect(response.status).toBe(200);
      slowest = Math.max(slowest, performance.now() - start);
      await sleep(100);
    }
  })();
  await work;
  done = true;
  await probe;
  return slowest;
}

beforeAll(async () => {
  server = await startSqliteServer({ SMTP_URL: undefined });
  admin = new ApiClient(server.url);
  await admin.signIn();
});

afterAll(async () => {
  await server?.stop();
});

describe("the markdown renderer process", () => {
  it("renders a save in a child process that holds none of the site's environment", async () => {
    expect(children(server.pid)).toEqual([]);
    const created = await save("# Hello\n\nSome **bold** text.");
    expect(created.status).toBe(201);
    expect(created.json.content).toBe("# Hello\n\nSome **bold** text.");
    const [renderer] = children(server.pid);
    expect(renderer).toBeGreaterThan(0);
    const environment = fs.readFileSync(`/proc/${renderer}/environ`, "utf8").split("\0");
    expect(environment.some((line) => line.startsWith("DATABASE_URL="))).toBe(false);
    expect(environment.some((line) => line.startsWith("ADMIN_PASSWORD="))).toBe(false);
    expect(fs.readFileSync(`/proc/${renderer}/cmdline`, "utf8")).toContain("--max-old-space-size=64");
  });

  it("refuses content that takes too long (400), and visitors are answered meanwhile", async () => {
    // 25,000 nested quotes: about 6 s of parsing on an idle machine.
    const slow = save(`${"> ".repeat(24_999)}a`);
    const slowest = await healthWhile(slow);
    const answer = await slow;
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatch(/render/);
    expect(slowest).toBeLessThan(1_000);
    // The next save gets a new renderer.
    expect((await save("after the slow one")).status).toBe(201);
  });

  it("a burst of saves that take seconds together all succeed: each render has its own deadline, not the queue's", async () => {
    // 20 posts of 2,500 unclosed links, a third to half a second each on an
    // idle machine: the last waits well past the 5 s deadline (before ADR
    // 039 the deadline counted that wait, and the last saves got 400).
    const answers = await Promise.all(Array.from({ length: 20 }, () => save("[a](".repeat(2500))));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
  }, 90_000);

  it("refuses content that needs more memory than the renderer has (400); the server's own memory is untouched", async () => {
    // A table of 2,000 columns whose 10,000 short rows are each padded to them:
    // 20 million cells, far more than the renderer's 64 MB heap.
    const rssBefore = memoryOf(server.pid);
    const huge = save(`${"|a".repeat(2000)}|\n${"|-".repeat(2000)}|\n${"|x|\n".repeat(10_000)}`);
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, memoryOf(server.pid))), 50);
    const answer = await huge;
    clearInterval(sampler);
    expect(answer.status).toBe(400);
    // Out of heap ("could not be rendered"), or on a loaded machine the deadline first.
    expect(answer.json.error).toMatch(/could not be rendered|takes too long to render/);
    // The server held the 50 KB request and the answer, not the render's hundreds of MB.
    expect(rssPeak - rssBefore).toBeLessThan(30 * 1024 * 1024);
    expect((await save("after the huge one")).status).toBe(201);
  });

  it("stops after 5 s without saves, and with the server when it is killed", async () => {
    expect(children(server.pid)).toHaveLength(1);
    expect(
      await until(
        () => children(server.pid),
        (list) => list.length === 0,
        10_000,
      ),
    ).toEqual([]);

    expect((await save("wakes it again")).status).toBe(201);
    const [renderer] = children(server.pid);
    await server.kill("SIGKILL");
    // Its channel to the server closed: it exits on its own.
    expect(
      await until(
        () => fs.existsSync(`/proc/${renderer}`),
        (alive) => !alive,
        5_000,
      ),
    ).toBe(false);
  });
});
