import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

const ROOT = path.resolve(import.meta.dirname, "../..");
const ENTRY = path.join(ROOT, "build/server/index.js");

export interface TestServer {
  url: string;
  /** Every log line the server printed so far (parsed JSON where possible). */
  logs: Array<Record<string, unknown>>;
  /** The DATABASE_URL the server runs on (a SQLite file or a postgres:// URL). */
  databaseUrl: string;
  /** What the server wrote to stderr so far (logs go to stdout; stderr should stay empty). */
  stderr(): string;
  /** The server's process id. */
  pid: number;
  /**
   * Sends the process a signal at once (SIGKILL: no shutdown code runs) and
   * answers when it has exited. The database stays; stop() still drops it.
   */
  kill(signal: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
}

const SHUTTING_DOWN = "shutting down: finishing in-flight requests";

/**
 * npm start's heap cap and malloc settings (package.json, ADR 028), for a
 * test that measures a process's memory against its 200 MB budget: the
 * budget is the deployed process's.
 */
export const AS_NPM_START = {
  NODE_OPTIONS: "--max-old-space-size=160 --max-semi-space-size=4",
  MALLOC_ARENA_MAX: "2",
  MALLOC_MMAP_THRESHOLD_: "131072",
};

/**
 * A keep-alive agent for many requests to test servers. Its idle sockets
 * close after 2 s, before the server's 5 s keep-alive timeout: a request
 * sent on an idle socket just as the server closes it fails with "socket
 * hang up", which a loaded machine's timing made happen between two tests.
 */
export function keepAliveAgent(maxSockets: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets, timeout: 2_000 });
}

export const TEST_ADMIN = { email: "admin@example.com", password: "correct-horse-battery" };

/**
 * The two-factor key test servers on PostgreSQL get, as an operator gives
 * every process the same one (ADR 047: without it PostgreSQL has none).
 * SQLite test servers make their own key file beside their database.
 */
export const TEST_TOTP_KEY = Buffer.alloc(32, 7).toString("base64");

/**
 * Starts the built server (npm run build) as its own process on a free port,
 * on a new database of the backend under test (a SQLite file, or a new
 * PostgreSQL database when TEST_DATABASE=postgres). Pass DATABASE_URL in `env`
 * to share a database between servers; the caller then owns it.
 * Tests talk to the server over real HTTP.
 */
export async function startServer(
  env: Record<string, string | undefined> = {},
  options: LaunchOptions = {},
): Promise<TestServer> {
  if (env.DATABASE_URL) return launch(env, env.DATABASE_URL, async () => {}, options);
  // Loaded only here: a file whose servers run on a database it names, or on
  // startSqliteServer's, does not reach the backend under test (ADR 062).
  const { createTestDatabase } = await import("./backend");
  // Migrated already, as the server would leave it at its start (ADR 066).
  const created = await createTestDatabase(undefined, { migrated: true });
  return launch(env, created.url, created.drop, options);
}

export interface LaunchOptions {
  /**
   * A command the server runs under, its arguments before node's (a machine
   * whose clock is off: `["faketime", "-f", "+3s"]`). Such a wrapper may fork
   * and not pass signals on, so the server's own process, named by its first
   * log line, gets them.
   */
  under?: string[];
  /** Called with each log line as it comes, before the server listens too. */
  onLog?: (entry: Record<string, unknown>) => void;
}

/**
 * Starts the built server on a new SQLite file, whatever the backend under
 * test, and removes the file when it stops: for a file whose tests check what
 * no backend changes (the bundles, the page cache's keys, the markdown
 * renderer's process), so it runs once, named without .db (ADR 066).
 */
export async function startSqliteServer(env: Record<string, string | undefined> = {}): Promise<TestServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ojai-db-"));
  return launch(env, path.join(dir, "site.db"), () => fs.promises.rm(dir, { recursive: true, force: true }));
}

/** Starts the server on `databaseUrl`; `dropDatabase` runs once it has stopped, or failed to start. */
async function launch(
  env: Record<string, string | undefined>,
  databaseUrl: string,
  dropDatabase: () => Promise<void>,
  { under = [], onLog }: LaunchOptions = {},
): Promise<TestServer> {
  if (!fs.existsSync(ENTRY)) {
    await dropDatabase();
    throw new Error("build/server/index.js is missing: run npm run build first");
  }
  const [command, ...args] = [...under, process.execPath, ENTRY];
  const child: ChildProcess = spawn(command, args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      SEED_SAMPLE_POSTS: "false",
      ADMIN_EMAIL: TEST_ADMIN.email,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      // Thousands of sign-ins: scrypt at the test cost (ADR 058); a test of
      // hashing itself passes "standard", as a site at an https address must.
      PASSWORD_HASH_COST: env.SITE_URL?.startsWith("https:") ? "standard" : "test",
      ...(process.env.TEST_DATABASE === "postgres" ? { TOTP_ENCRYPTION_KEY: TEST_TOTP_KEY } : {}),
      ...env,
      DATABASE_URL: databaseUrl,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // A process ended by a signal keeps exitCode null: signalCode tells.
  const running = () => child.exitCode === null && child.signalCode === null;
  const logs: Array<Record<string, unknown>> = [];
  // Under a wrapper, the server's process is the one its log lines name.
  let serverPid = under.length > 0 ? undefined : child.pid;
  const signal = (name: NodeJS.Signals) => (serverPid === undefined ? child.kill(name) : process.kill(serverPid, name));
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));

  const url = await new Promise<string>((resolve, reject) => {
    let buffered = "";
    const timer = setTimeout(() => {
      signal("SIGKILL");
      reject(new Error(`server did not start in 20 s\n${stderr}`));
    }, 20_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      let newline: number;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        try {
          const entry = JSON.parse(line) as Record<string, unknown>;
          logs.push(entry);
          onLog?.(entry);
          if (typeof entry.pid === "number") serverPid ??= entry.pid;
          if (entry.msg === "server listening") {
            clearTimeout(timer);
            resolve(`http://127.0.0.1:${String(entry.port)}`);
          }
        } catch {
          logs.push({ raw: line });
        }
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(
        new Error(
          `server exited with ${code} before listening\n${stderr}\n${logs
            .slice(-5)
            .map((l) => JSON.stringify(l))
            .join("\n")}`,
        ),
      );
    });
  }).catch(async (error) => {
    await dropDatabase().catch(() => {});
    throw error;
  });

  return {
    url,
    logs,
    databaseUrl,
    stderr: () => stderr,
    pid: serverPid ?? child.pid!,
    async kill(name) {
      if (running()) signal(name);
      await exited;
    },
    async stop() {
      if (running()) {
        signal("SIGTERM");
        // Once it drains, a second signal ends its idle keep-alive connections (fetch's, kept 4 s)
        // rather than waiting for them: nothing will be sent on them (ADR 033).
        for (let i = 0; i < 200 && running() && !logs.some((line) => line.msg === SHUTTING_DOWN); i++) await sleep(10);
        if (running()) signal("SIGTERM");
      }
      await exited;
      await dropDatabase();
    },
  };
}

/** What the page cache reports at debug level each time it stores an entry (app/server/page-cache/cache.server.ts). */
export interface CacheStored {
  key: string;
  /** Entries in the cache, this one included. */
  entries: number;
  /** Bytes the cache counts for them. */
  bytes: number;
}

/** The page cache's "stored" lines so far; the server must run with LOG_LEVEL=debug. */
export function cacheStoredLines(server: TestServer): CacheStored[] {
  return server.logs.filter((line) => line.msg === "page cache stored").map((line) => line.cache as CacheStored);
}

/**
 * Waits until the page cache reports `key` stored (among its "stored" lines
 * from index `since` on): the entry is stored just after the answer that
 * fills it, so the next request can still miss.
 */
export async function cacheStored(server: TestServer, key: string, since = 0): Promise<CacheStored> {
  for (let i = 0; i < 100; i++) {
    const line = cacheStoredLines(server)
      .slice(since)
      .find((stored) => stored.key === key);
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the page cache never reported ${key} stored (is LOG_LEVEL debug?)`);
}

/** A small cookie-keeping client for the JSON API. */
export class ApiClient {
  cookie = "";
  constructor(readonly baseUrl: string) {}

  async request(method: string, pathname: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(this.baseUrl + pathname, {
      method,
      redirect: "manual",
      headers: {
        ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
        ...(this.cookie ? { Cookie: this.cookie } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const setCookie = response.headers.get("set-cookie");
    if (setCookie) {
      const pair = setCookie.split(";")[0]!;
      this.cookie = pair.endsWith("=") ? "" : pair;
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json: json as any };
  }

  get = (p: string, h?: Record<string, string>) => this.request("GET", p, undefined, h);
  post = (p: string, b?: unknown, h?: Record<string, string>) => this.request("POST", p, b ?? {}, h);
  put = (p: string, b?: unknown, h?: Record<string, string>) => this.request("PUT", p, b ?? {}, h);
  delete = (p: string, h?: Record<string, string>) => this.request("DELETE", p, undefined, h);

  /** Uploads a generated PNG as the header-image form field; answers the 201 body. */
  async uploadPng(png: Buffer): Promise<{ url: string; variants: Array<{ url: string; width: number }> }> {
    const form = new FormData();
    form.append("image", new Blob([new Uint8Array(png)], { type: "image/png" }), "header.png");
    const response = await fetch(`${this.baseUrl}/api/admin/upload`, {
      method: "POST",
      body: form,
      headers: { Cookie: this.cookie },
    });
    if (response.status !== 201) throw new Error(`upload failed: ${response.status} ${await response.text()}`);
    return response.json() as Promise<{ url: string; variants: Array<{ url: string; width: number }> }>;
  }

  async signIn(credentials = TEST_ADMIN, headers: Record<string, string> = {}) {
    const result = await this.post("/api/auth/login", credentials, headers);
    if (result.status !== 200) throw new Error(`sign-in failed: ${result.status} ${result.text}`);
    return result;
  }
}
