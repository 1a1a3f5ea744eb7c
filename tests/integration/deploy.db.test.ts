import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http2 from "node:http2";
import https from "node:https";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { TEST_BACKEND } from "../support/backend";
import { renderNginxSite } from "../../deploy/render-nginx-site.mjs";
import {
  closeSocket,
  findNginx,
  parseEnvironmentFile,
  readSocketUnit,
  readUnit,
  ROOT,
  startAppProcess,
  startNginx,
  startPostgresCluster,
  tail,
  warningsIn,
  type AppProcess,
  type Nginx,
  type PostgresCluster,
} from "../support/deploy";
import { freePort } from "../support/ports";
import { isFailure, lostWrites, runLoad, summarize, type LoadRequest, type LoadResult } from "../support/load";
import { TEST_ADMIN } from "../support/server";

/**
 * Issue 19: the production path of docs/deploy.md, run here. nginx with the
 * site file deploy/ ships (rendered with this test's ports, a self-signed
 * certificate and its own folders) in front of app processes started as
 * deploy/systemd's unit starts them.
 *
 * On the SQLite pass of the suite: the one-machine deployment (nginx and one
 * process on SQLite): TLS, HTTP/2, the redirect, compression, the upload
 * limit, the caching of /assets and /images, and the visitor's address.
 * On the PostgreSQL pass: two processes on one PostgreSQL database, a cluster
 * this test makes with initdb (never the machine's shared server, since the
 * test stops it): one site through either process, then under load a rolling
 * restart, a process killed with SIGKILL, and the database restarted.
 *
 * Skipped only when nginx is not installed (.ci/run installs Debian's).
 * DEPLOY_LOAD_SECONDS sets each load phase (default 6; `npm run deploy:drill`
 * runs 30 and prints the figures docs/performance.md quotes).
 */
const nginxBinary = findNginx();
const LOAD_MS = Number(process.env.DEPLOY_LOAD_SECONDS ?? 6) * 1000;
const CONNECTIONS = 20;
/**
 * How long after a restarted process answers /healthz nginx surely sends it
 * requests again: its fail_timeout (2 s, deploy/render-nginx-site.mjs) on a
 * clock of whole seconds, and a second more. Restarting the next process
 * sooner can leave nginx with none it will try (502 at once), which is why
 * deploy/rolling-restart.sh waits as long.
 */
const NGINX_TAKES_BACK_MS = 4000;
const FIGURES_FILE = path.resolve(import.meta.dirname, "../../.tmp/deploy-figures.json");

if (!nginxBinary) {
  console.warn("deploy tests skipped: nginx is not installed (apt-get install nginx; .ci/run installs it)");
}

const appEnvironment = (siteUrl: string, databaseUrl: string) => ({
  SITE_URL: siteUrl,
  HOST: "127.0.0.1",
  DATABASE_URL: databaseUrl,
  TRUST_PROXY: "loopback",
  LOG_LEVEL: "info",
  SEED_SAMPLE_POSTS: "true",
  ADMIN_EMAIL: TEST_ADMIN.email,
  ADMIN_PASSWORD: TEST_ADMIN.password,
});

/** A request to nginx over HTTPS/1.1, optionally from another loopback address (a different visitor). */
function request(
  nginx: Nginx,
  method: string,
  pathname: string,
  { body, headers = {}, from }: { body?: string | Buffer; headers?: Record<string, string>; from?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const outgoing = https.request(
      new URL(pathname, nginx.siteUrl),
      {
        method,
        ca: nginx.ca,
        agent: false,
        localAddress: from,
        headers: { ...(body !== undefined ? { "Content-Length": Buffer.byteLength(body) } : {}), ...headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    // nginx may answer (413) before it has read the whole body, and close.
    outgoing.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE" && error.code !== "ECONNRESET") reject(error);
    });
    outgoing.end(body);
  });
}

async function signIn(nginx: Nginx): Promise<string> {
  const answer = await request(nginx, "POST", "/api/auth/login", {
    body: JSON.stringify(TEST_ADMIN),
    headers: { "Content-Type": "application/json" },
  });
  expect(answer.status).toBe(200);
  const cookie = String(answer.headers["set-cookie"]).split(";")[0]!;
  expect(cookie).toMatch(/^__Host-session=/);
  return cookie;
}

/**
 * Sign-in throttling counts the visitor's address, which nginx passes in
 * X-Forwarded-For, not nginx's own (127.0.0.1, the same for every visitor).
 * Visitors here are other loopback addresses: nginx sees 127.0.0.2 and
 * 127.0.0.3. Each attempt names another account, so only the per-address
 * count can reach its limit of 5.
 */
async function throttlesByVisitorAddress(nginx: Nginx) {
  const attempt = (from: string, email: string, headers: Record<string, string> = {}) =>
    request(nginx, "POST", "/api/auth/login", {
      from,
      body: JSON.stringify({ email, password: "wrong-password" }),
      headers: { "Content-Type": "application/json", ...headers },
    }).then((answer) => answer.status);
  for (let i = 0; i < 5; i++) expect(await attempt("127.0.0.2", `visitor-a-${i}@example.com`)).toBe(401);
  expect(await attempt("127.0.0.2", "visitor-a-5@example.com")).toBe(429);
  // A forged X-Forwarded-For does not get the throttled visitor out: nginx replaces it.
  expect(await attempt("127.0.0.2", "visitor-a-6@example.com", { "X-Forwarded-For": "203.0.113.7" })).toBe(429);
  // Another visitor is not throttled by the first one's failures.
  expect(await attempt("127.0.0.3", "visitor-b-0@example.com")).toBe(401);
}

describe("what deploy/ ships", () => {
  it("the systemd unit starts the process with npm start's environment and Node flags, on its instance's port", () => {
    const start = (
      JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } }
    ).scripts.start;
    const words = start.split(" ");
    const node = words.indexOf("node");
    const unit = readUnit("3001");
    expect(unit.execStart).toEqual(["/usr/bin/node", ...words.slice(node + 1)]);
    expect(unit.environment).toEqual({
      ...Object.fromEntries(words.slice(0, node).map((word) => word.split("="))),
      NODE_ENV: "production",
      PORT: "3001",
    });
  });

  it("the socket unit listens on loopback at the instance's port, and the service requires it (ADR 093)", () => {
    expect(readSocketUnit("3001")).toEqual({ host: "127.0.0.1", port: 3001 });
    const service = fs.readFileSync(path.join(ROOT, "deploy/systemd/ojai-site@.service"), "utf8");
    expect(service).toMatch(/^Requires=ojai-site@%i\.socket$/m);
    expect(service).toMatch(/^After=ojai-site@%i\.socket /m);
  });

  it("the environment file example sets no PORT (it would override every instance's) and only variables the app reads", () => {
    const example = parseEnvironmentFile(fs.readFileSync(path.join(ROOT, "deploy/ojai-site.env.example"), "utf8"));
    expect(example).not.toHaveProperty("PORT");
    const config = fs.readFileSync(path.join(ROOT, "app/server/platform/config.server.ts"), "utf8");
    for (const name of Object.keys(example)) expect(config, name).toContain(`${name}:`);
  });

  it("the unit starts the release docs/deploy.md links as current (its working directory holds the build it runs)", () => {
    const unit = fs.readFileSync(path.join(ROOT, "deploy/systemd/ojai-site@.service"), "utf8");
    const guide = fs.readFileSync(path.join(ROOT, "docs/deploy.md"), "utf8");
    const workingDirectory = unit.split("\n").find((line) => line.startsWith("WorkingDirectory="));
    const links = guide.split("\n").filter((line) => line.startsWith('ln -sfn "$RELEASE" '));
    expect(links.length).toBeGreaterThan(0);
    for (const link of links)
      expect(workingDirectory).toBe(`WorkingDirectory=${link.slice('ln -sfn "$RELEASE" '.length)}`);
  });

  it("the environment file example reads the same in a shell as in systemd (docs/deploy.md sources it for the command line)", () => {
    const file = path.join(ROOT, "deploy/ojai-site.env.example");
    const example = parseEnvironmentFile(fs.readFileSync(file, "utf8"));
    const shell = execFileSync("sh", ["-c", 'set -a; . "$1"; set +a; env -0', "sh", file], {
      env: {},
      encoding: "utf8",
    });
    const read = Object.fromEntries(
      shell.split("\0").map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
    );
    for (const [name, value] of Object.entries(example)) expect(read[name], name).toBe(value);
  });

  it("the nginx template renders with nothing left to fill in, and refuses a site URL that is not https", () => {
    const site = renderNginxSite({ siteUrl: "https://www.example.com", apps: ["127.0.0.1:3001", "127.0.0.1:3002"] });
    expect(site).not.toMatch(/\{\{|\}\}/);
    expect(site).toContain("server 127.0.0.1:3002 max_fails=1 fail_timeout=2s;");
    expect(site).toContain("listen [::]:443 ssl http2;");
    expect(site).toContain("return 301 https://www.example.com$request_uri;");
    expect(() => renderNginxSite({ siteUrl: "http://www.example.com", apps: ["127.0.0.1:3001"] })).toThrow(/https/);
  });

  it("the nginx site limits requests per address in four zones, logs in its own format to its own file, and takes exemptions (ADR 048)", () => {
    const site = renderNginxSite({ siteUrl: "https://www.example.com", apps: ["127.0.0.1:3001"] });
    for (const zone of ["ojai_site_sign_in", "ojai_site_contact", "ojai_site_search", "ojai_site_pages"]) {
      expect(site).toMatch(new RegExp(`limit_req_zone \\$ojai_site_limit_key zone=${zone}:`));
      expect(site).toContain(`limit_req zone=${zone} `);
    }
    // Both servers (the redirect too) log to the site's file, in the format that keeps no token.
    expect(site.split("access_log /var/log/nginx/ojai-site.access.log ojai_site;")).toHaveLength(3);
    // Its format names the redacted path, query and referrer, never the request as sent.
    const format = /log_format ojai_site ([^;]*);/.exec(site)![1]!;
    for (const raw of ["$request ", "$request_uri", "$args", "$query_string", "$http_referer", "$uri"]) {
      expect(format).not.toContain(raw);
    }
    const exempt = renderNginxSite({
      siteUrl: "https://www.example.com",
      apps: ["127.0.0.1:3001"],
      rateLimitExempt: ["192.0.2.7", "2001:db8::/64"],
      accessLogs: [{ file: "/var/log/nginx/site.log" }, { file: "/var/log/nginx/timing.log", format: "timing" }],
    });
    expect(exempt).toContain("    192.0.2.7 1;\n    2001:db8::/64 1;");
    expect(exempt).toContain("access_log /var/log/nginx/timing.log timing;");
    const site1 = { siteUrl: "https://www.example.com", apps: ["127.0.0.1:3001"] };
    expect(() => renderNginxSite({ ...site1, rateLimitExempt: ["any; allow all"] })).toThrow(/rate-limit-exempt/);
    expect(() => renderNginxSite({ ...site1, accessLogs: [{ file: "/tmp/x.log off; #" }] })).toThrow(/access-log/);
  });
});

/** The deployment of the backend under test; skipped, and saying why, only when nginx is missing. */
function deployment(backend: "sqlite" | "postgres", name: string, body: () => void) {
  if (TEST_BACKEND !== backend) return;
  if (nginxBinary) describe(name, body);
  else describe.skip(`${name} (skipped: nginx is not installed; apt-get install nginx)`, body);
}

/**
 * nginx's per-address zones key an IPv6 client by its /64. Loopback has one
 * IPv6 address, so a probe server of the test's own, beside the site in the
 * same nginx, takes the client's address from a header (the realip module,
 * trusted from 127.0.0.1 there only) and limits on the site's sign-in zone
 * (10 a minute, a burst of 10: 11 at once, then 429).
 */
deployment("sqlite", "nginx's limits per address: IPv6 by its /64", () => {
  let dir: string;
  let nginx: Nginx;
  let probePort: number;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "ojai-deploy-v6-"));
    probePort = await freePort();
    const probe = `server {
    listen 127.0.0.1:${probePort};
    set_real_ip_from 127.0.0.1;
    real_ip_header X-Probe-Client;
    access_log off;
    location / {
      limit_req zone=ojai_site_sign_in burst=10 nodelay;
      limit_req_status 429;
      empty_gif;
    }
  }`;
    // No app answers behind it: the probe never passes a request on.
    nginx = await startNginx(nginxBinary!, [`127.0.0.1:${await freePort()}`], dir, { extraHttp: probe });
  }, 60_000);
  afterAll(async () => {
    await nginx?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const from = async (client: string) =>
    (await fetch(`http://127.0.0.1:${probePort}/`, { headers: { "X-Probe-Client": client } })).status;

  it("addresses rotating inside one /64 share one limit, however they are written; the next /64 has its own", async () => {
    for (let i = 1; i <= 11; i++) expect(await from(`2001:db8:1:2:${i.toString(16)}::${i}`)).toBe(200);
    for (const sameNetwork of [
      "2001:db8:1:2::1",
      "2001:0db8:0001:0002:ffff:ffff:ffff:ffff",
      "2001:DB8:1:2:0:0:0:63",
      "2001:db8:1:2::10.0.0.1",
    ]) {
      expect(await from(sameNetwork), sameNetwork).toBe(429);
    }
    expect(await from("2001:db8:1:3::1")).toBe(200);
    expect(await from("2001:db8:0:2::1")).toBe(200);
  });

  it("IPv4 is counted per address as before, and an IPv4-mapped IPv6 address as its IPv4 address", async () => {
    for (let i = 0; i < 11; i++) expect(await from("198.51.100.7")).toBe(200);
    expect(await from("198.51.100.7")).toBe(429);
    expect(await from("::ffff:198.51.100.7")).toBe(429);
    expect(await from("198.51.100.8")).toBe(200);
    // Its neighbour in ::/64 is not the IPv4 address.
    expect(await from("::1")).toBe(200);
  });
});

deployment("sqlite", "one machine: nginx and one app process on SQLite", () => {
  let dir: string;
  let nginx: Nginx;
  let app: AppProcess;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "ojai-deploy-"));
    const port = await freePort();
    nginx = await startNginx(nginxBinary!, [`127.0.0.1:${port}`], dir);
    app = await startAppProcess(port, appEnvironment(nginx.siteUrl, path.join(dir, "site.db")), dir);
  }, 60_000);
  afterAll(async () => {
    await app?.stop();
    if (app) closeSocket(app.port);
    await nginx?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("plain HTTP answers with a redirect to the same path on the site's https origin", async () => {
    const answer = await fetch(`http://127.0.0.1:${nginx.httpPort}/blog?page=2`, { redirect: "manual" });
    expect(answer.status).toBe(301);
    expect(answer.headers.get("location")).toBe(`${nginx.siteUrl}/blog?page=2`);
  });

  it("HTTPS speaks HTTP/2, the app's security headers come through, and nginx names no version", async () => {
    const session = http2.connect(nginx.siteUrl, { ca: nginx.ca });
    try {
      const headers = await new Promise<http2.IncomingHttpHeaders>((resolve, reject) => {
        const stream = session.request({ ":path": "/about", "accept-encoding": "br" });
        stream.on("response", (received) => {
          stream.resume();
          stream.on("end", () => resolve(received));
        });
        stream.on("error", reject);
      });
      expect(session.alpnProtocol).toBe("h2");
      expect(headers[":status"]).toBe(200);
      expect(headers["strict-transport-security"]).toMatch(/max-age=\d+/);
      expect(headers["content-security-policy"]).toBeTruthy();
      // Compression is the app's (brotli, from its page cache); nginx adds none of its own.
      expect(headers["content-encoding"]).toBe("br");
      expect(headers.server).toBe("nginx");
    } finally {
      session.close();
    }
  });

  it("hashed assets keep the app's year-long caching, and nginx serves repeats from its cache", async () => {
    const page = (await request(nginx, "GET", "/about")).body.toString();
    const asset = /(\/assets\/[\w.-]+\.(?:css|js))/.exec(page)?.[1];
    expect(asset).toBeTruthy();
    const first = await request(nginx, "GET", asset!);
    expect(first.status).toBe(200);
    expect(first.headers["cache-control"]).toMatch(/max-age=31536000/);
    expect(first.headers["cache-control"]).toMatch(/immutable/);
    const second = await request(nginx, "GET", asset!);
    expect(second.headers["x-cache-status"]).toBe("HIT");
    expect(second.body.equals(first.body)).toBe(true);
    // An asset no process has is not kept: a new release's may be there on the next request.
    for (let i = 0; i < 2; i++) {
      const missing = await request(nginx, "GET", "/assets/not-built-yet-0123.js");
      expect(missing.status).toBe(404);
      expect(missing.headers["x-cache-status"]).not.toBe("HIT");
    }
  });

  it("an image uploaded through nginx is cached by it for as long as the app says", async () => {
    const cookie = await signIn(nginx);
    const png = await sharp({ create: { width: 640, height: 320, channels: 3, background: "#2f7a4a" } })
      .png()
      .toBuffer();
    const boundary = "----deploy-test";
    const form = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="header.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const uploaded = await request(nginx, "POST", "/api/admin/upload", {
      body: form,
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}`, Cookie: cookie },
    });
    expect(uploaded.status).toBe(201);
    const { url } = JSON.parse(uploaded.body.toString()) as { url: string };
    const first = await request(nginx, "GET", url);
    expect(first.status).toBe(200);
    expect(first.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(first.headers["x-cache-status"]).toBe("MISS");
    const second = await request(nginx, "GET", url);
    expect(second.headers["x-cache-status"]).toBe("HIT");
    expect(second.body.equals(first.body)).toBe(true);
  });

  it("nginx's body limit sits just above the app's upload limit", async () => {
    const headers = { "Content-Type": "multipart/form-data; boundary=x" };
    // 10.5 MiB: nginx passes it on, and the app answers for itself (413 in its JSON).
    const toApp = await request(nginx, "POST", "/api/admin/upload", {
      body: Buffer.alloc(10.5 * 1024 * 1024, "a"),
      headers,
    });
    expect(toApp.status).toBe(413);
    expect(toApp.headers["content-type"]).toMatch(/application\/json/);
    // 11.5 MiB: past client_max_body_size, nginx refuses it before any app process sees it.
    const refused = await request(nginx, "POST", "/api/admin/upload", {
      body: Buffer.alloc(11.5 * 1024 * 1024, "a"),
      headers,
    });
    expect(refused.status).toBe(413);
    expect(refused.headers["content-type"]).toMatch(/text\/html/);
  });

  it("throttling counts the visitor's address from X-Forwarded-For, not nginx's", async () => {
    await throttlesByVisitorAddress(nginx);
  });

  it("connections the process had not yet accepted at SIGTERM wait on systemd's socket and are answered by the next process", async () => {
    /** One request on a connection of its own; answers the status line, or what went wrong. */
    const ask = (request: string) =>
      new Promise<string>((resolve) => {
        let received = "";
        const socket = net.connect(app.port, "127.0.0.1", () => socket.write(request));
        socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
        socket.on("error", (error: NodeJS.ErrnoException) => resolve(`error ${error.code}`));
        socket.on("close", () => resolve(received.split("\r\n")[0] || "closed without an answer"));
      });
    const body = JSON.stringify({ email: "queued@example.com", password: "not-the-password" });
    const signIn = `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nX-Forwarded-For: 198.51.100.60\r\nConnection: close\r\n\r\n${body}`;
    const page = "GET /about HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    // A process that cannot accept for a moment (here: stopped; in production,
    // a long garbage collection on a busy machine) while connections come in.
    process.kill(app.pid, "SIGSTOP");
    const answers = Array.from({ length: 6 }, (_, i) => ask(i % 2 ? page : signIn));
    await sleep(300);
    // systemctl restart: SIGTERM, the process's exit, then the next process.
    process.kill(app.pid, "SIGTERM");
    process.kill(app.pid, "SIGCONT");
    expect(await app.stop()).toBe(0);
    app = await startAppProcess(app.port, appEnvironment(nginx.siteUrl, path.join(dir, "site.db")), dir);
    // Each answered, by the old process or the new one: none reset.
    expect(await Promise.all(answers)).toEqual(
      Array.from({ length: 6 }, (_, i) => (i % 2 ? "HTTP/1.1 200 OK" : "HTTP/1.1 401 Unauthorized")),
    );
  });
});

interface Figures {
  seconds: number;
  connections: number;
  requests: number;
  failed: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  writesAcknowledged: number;
  lostWrites: number;
  [detail: string]: unknown;
}

deployment("postgres", "two app processes behind nginx on one PostgreSQL database", () => {
  let dir: string;
  let cluster: PostgresCluster;
  let databaseUrl: string;
  let nginx: Nginx;
  const ports: number[] = [];
  const apps: AppProcess[] = [];
  let environment: Record<string, string>;
  let cookie: string;
  let readPaths: string[];
  const figures: Record<string, Figures> = {};
  /**
   * The drill's load through nginx (20% writes) until `until` has settled and LOAD_MS has passed,
   * and, given `afterwards`, until that many requests sent after it have been answered.
   */
  const loadUntil = (tag: string, until: Promise<unknown>, afterwards?: number) =>
    runLoad({
      url: nginx.siteUrl,
      ca: nginx.ca,
      durationMs: LOAD_MS,
      connections: CONNECTIONS,
      cookie,
      readPaths,
      writeShare: 0.2,
      tag,
      until,
      afterwards,
    });

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "ojai-deploy-"));
    cluster = await startPostgresCluster();
    databaseUrl = await cluster.createDatabase("ojai_site");
    ports.push(await freePort(), await freePort());
    // The drills' load comes from 127.0.0.1 and stands in for many visitors:
    // nginx does not rate-limit it. Visitors the limits apply to come from
    // other loopback addresses.
    nginx = await startNginx(
      nginxBinary!,
      ports.map((port) => `127.0.0.1:${port}`),
      dir,
      { rateLimitExempt: ["127.0.0.1"] },
    );
    environment = appEnvironment(nginx.siteUrl, databaseUrl);
    // Both at once, as systemd starts them at boot.
    apps.push(...(await Promise.all(ports.map((port) => startAppProcess(port, environment, dir)))));
    cookie = await signIn(nginx);
    const posts = (await (await fetch(`${apps[0]!.url}/api/posts`)).json()) as Array<{ slug: string }>;
    readPaths = ["/", "/blog", "/about", "/api/posts?limit=5", ...posts.map((p) => `/blog/${p.slug}`)];
  }, 90_000);
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    for (const port of ports) closeSocket(port);
    await nginx?.stop();
    cluster?.destroy();
    if (Object.keys(figures).length) {
      fs.mkdirSync(path.dirname(FIGURES_FILE), { recursive: true });
      fs.writeFileSync(FIGURES_FILE, JSON.stringify(figures, null, 2));
      console.log(`deploy figures (${FIGURES_FILE}):\n${JSON.stringify(figures, null, 2)}`);
    }
    // DEPLOY_KEEP_DIR=1 keeps nginx's and the processes' logs for a look after a failure.
    if (dir && process.env.DEPLOY_KEEP_DIR) console.log(`deploy test folder kept: ${dir}`);
    else if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const address = (i: number) => `127.0.0.1:${ports[i]}`;
  /** What nginx logged for each request of a load run, by request id. */
  const logged = () => new Map(nginx.accessLog().map((line) => [line.requestId, line]));
  const describeFailures = (failures: LoadRequest[]) => {
    const lines = logged();
    // First: a summary of the run keeps only the message's first few hundred characters.
    const said = apps.map((app) => `${app.port} said: ${JSON.stringify(warningsIn(app.logFile, 4))}`);
    const sent = failures
      .slice(0, 20)
      .map((f) => `${f.method} ${f.path} -> ${f.status || f.error} ${JSON.stringify(lines.get(f.id) ?? null)}`);
    return [...said, ...sent].join("\n");
  };
  async function record(name: string, result: LoadResult, durationMs: number, extra: Record<string, unknown> = {}) {
    const lost = await lostWrites(databaseUrl, result.posts);
    figures[name] = {
      seconds: Math.round(durationMs / 100) / 10,
      connections: CONNECTIONS,
      ...summarize(result.requests, durationMs),
      writesAcknowledged: result.requests.filter((r) => r.method !== "GET" && r.status >= 200 && r.status < 300).length,
      lostWrites: lost.length,
      ...extra,
    };
    return lost;
  }

  it("a post saved through one process is served by the other at once", async () => {
    const [a, b] = apps as [AppProcess, AppProcess];
    // B has the list in its page cache before A writes.
    await fetch(`${b.url}/api/posts`);
    expect((await fetch(`${b.url}/api/posts`)).headers.get("x-cache")).toBe("hit");
    const created = await fetch(`${a.url}/api/admin/posts`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: cookie },
      body: JSON.stringify({
        title: "Saved on A",
        slug: "saved-on-a",
        excerpt: "Through the first process",
        content: "Served by **the second**.",
        published: true,
        publishDate: new Date(Date.now() - 60_000).toISOString(),
      }),
    });
    expect(created.status).toBe(201);
    const list = (await (await fetch(`${b.url}/api/posts`)).json()) as Array<{ slug: string }>;
    expect(list[0]!.slug).toBe("saved-on-a");
    expect(await (await fetch(`${b.url}/blog/saved-on-a`)).text()).toContain("<strong>the second</strong>");
    // And through nginx, whichever process answers.
    for (let i = 0; i < 4; i++) expect((await request(nginx, "GET", "/blog/saved-on-a")).status).toBe(200);
  });

  it("a session made on one process works on the other", async () => {
    const [a, b] = apps as [AppProcess, AppProcess];
    const signedIn = await fetch(`${a.url}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(TEST_ADMIN),
    });
    expect(signedIn.status).toBe(200);
    const session = signedIn.headers.get("set-cookie")!.split(";")[0]!;
    const me = await fetch(`${b.url}/api/auth/me`, { headers: { Cookie: session } });
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({ user: { email: TEST_ADMIN.email } });
    // Through nginx, over and over: whichever process answers knows the session.
    for (let i = 0; i < 6; i++) {
      expect((await request(nginx, "GET", "/api/admin/posts?limit=1", { headers: { Cookie: session } })).status).toBe(
        200,
      );
    }
  });

  it("throttling counts the visitor's address from X-Forwarded-For, not nginx's", async () => {
    await throttlesByVisitorAddress(nginx);
  });

  it("nginx's access log keeps no token: invitation and share-link paths, the setup link's query, a token parameter, referrers (ADR 048)", async () => {
    const json = { "Content-Type": "application/json", Cookie: cookie };
    const post = async (pathname: string, body: unknown) => {
      const answer = await request(nginx, "POST", pathname, { body: JSON.stringify(body), headers: json });
      expect(answer.status, answer.body.toString()).toBe(201);
      return JSON.parse(answer.body.toString()) as Record<string, string>;
    };
    // Real secrets: an invitation and a share link of a draft, made through nginx.
    const invitePath = new URL(
      (await post("/api/admin/invites", { email: "log-check@example.com", password: TEST_ADMIN.password })).link!,
    ).pathname;
    const draft = await post("/api/admin/posts", {
      title: "A draft to share",
      slug: "a-draft-to-share",
      excerpt: "Not public yet",
      content: "Draft body.",
      published: false,
    });
    const sharePath = new URL((await post(`/api/admin/posts/${draft.id}/preview-links`, {})).url!).pathname;
    const lastSegment = (pathname: string) => pathname.slice(pathname.lastIndexOf("/") + 1);
    const setupToken = "SetupTokenSetupTokenSetupTokenSetupToken123";
    const queryToken = "QueryTokenQueryTokenQueryTokenQueryToken456";
    const refererToken = "RefererTokenRefererTokenRefererToken789abcd";
    // Signed links (ADR 071, 072): forged here, so a 404, but their paths are logged without them as well.
    const signedToken = "0b7c2d3e-1111-4222-8333-944445555666.0123456789abcdef0123456789abcdef";
    const secrets = [
      lastSegment(invitePath),
      lastSegment(sharePath),
      setupToken,
      queryToken,
      refererToken,
      signedToken,
    ];

    const page = (await request(nginx, "GET", "/about")).body.toString();
    const asset = /(\/assets\/[\w.-]+\.(?:css|js))/.exec(page)![1]!;
    const visits: Array<[string, number, Record<string, string>?]> = [
      [invitePath, 200],
      [invitePath.replace("/admin/invite/", "/Admin/%69nvite/"), 200],
      [sharePath, 200],
      [sharePath.replace("/blog/preview/", "/BLOG/pr%65view/"), 200],
      [`/admin/setup?token=${setupToken}`, 403],
      [`/blog?page=1&t%6Fken=${queryToken}`, 200],
      // What a browser without the pages' no-referrer policy would send with their assets.
      [asset, 200, { Referer: `${nginx.siteUrl}/admin/invite/${refererToken}` }],
      ["/blog?page=1", 200, { Referer: `${nginx.siteUrl}/blog?page=2` }],
      [`/newsletter/unsubscribe/${signedToken}`, 404],
      [`/Newsletter/c%6Fnfirm/${signedToken}`, 404],
      [`/book/manage/${signedToken}`, 404],
    ];
    for (const [pathname, status, headers] of visits) {
      expect((await request(nginx, "GET", pathname, { headers })).status, pathname).toBe(status);
    }
    // The plain-HTTP server, which redirects, logs the same way.
    expect((await fetch(`http://127.0.0.1:${nginx.httpPort}${invitePath}`, { redirect: "manual" })).status).toBe(301);

    const lines = nginx.siteLog();
    const logged = lines.join("\n");
    for (const secret of secrets) {
      expect(logged).not.toContain(secret);
      expect(nginx.errorLog()).not.toContain(secret);
    }
    const count = (text: string) => lines.filter((line) => line.includes(text)).length;
    expect(count('"GET /admin/invite/[token] HTTP/1.1" 200 ')).toBe(2);
    expect(count('"GET /admin/invite/[token] HTTP/1.1" 301 ')).toBe(1);
    expect(count('"GET /blog/preview/[token] HTTP/1.1" 200 ')).toBe(2);
    expect(count('"GET /newsletter/unsubscribe/[token] HTTP/1.1" 404 ')).toBe(1);
    expect(count('"GET /newsletter/confirm/[token] HTTP/1.1" 404 ')).toBe(1);
    expect(count('"GET /book/manage/[token] HTTP/1.1" 404 ')).toBe(1);
    expect(count('"GET /admin/setup?[redacted] HTTP/1.1" 403 ')).toBe(1);
    expect(count('"GET /blog?[redacted] HTTP/1.1" 200 ')).toBe(1);
    // An ordinary query is kept; of a referrer, only its origin.
    expect(count(`"GET /blog?page=1 HTTP/1.1" 200 `)).toBeGreaterThanOrEqual(1);
    expect(count(`"GET ${asset} HTTP/1.1" 200 `)).toBeGreaterThanOrEqual(1);
    expect(logged).toContain(`"${nginx.siteUrl}" "`);
    expect(logged).not.toContain(`${nginx.siteUrl}/`);
  });

  it("nginx's limits: a flood of sign-ins from one address is refused (429) while that address and others still get pages; several tabs of pages with their assets load", async () => {
    const flooder = "127.0.0.4";
    const signIn = (from: string, i: number) =>
      request(nginx, "POST", "/api/auth/login", {
        from,
        body: JSON.stringify({ email: `flood-${i}@example.com`, password: "wrong-password" }),
        headers: { "Content-Type": "application/json" },
      });
    const pages: number[] = [];
    const [flood] = await Promise.all([
      Promise.all(Array.from({ length: 40 }, (_, i) => signIn(flooder, i))),
      (async () => {
        for (let i = 0; i < 5; i++) {
          pages.push((await request(nginx, "GET", "/blog", { from: flooder })).status);
          pages.push((await request(nginx, "GET", "/about", { from: "127.0.0.5" })).status);
        }
      })(),
    ]);
    // nginx's own refusals: plain text, with Retry-After; the rest reached the app (its JSON 401 or 429).
    const refused = flood.filter(
      (answer) => answer.status === 429 && /text\/plain/.test(String(answer.headers["content-type"])),
    );
    expect(refused.length).toBeGreaterThanOrEqual(20);
    expect(refused[0]!.headers["retry-after"]).toBe("10");
    expect(refused[0]!.body.toString()).toContain("Too many requests from your address");
    const passed = flood.filter((answer) => !refused.includes(answer));
    expect(passed.length).toBeGreaterThan(0);
    for (const answer of passed) expect(String(answer.headers["content-type"])).toMatch(/application\/json/);
    expect(pages.every((status) => status === 200)).toBe(true);
    // Another visitor's sign-in is not refused by the first one's flood.
    expect((await signIn("127.0.0.5", 99)).status).toBe(401);

    // Five tabs at once, each a page with everything it loads: nothing refused.
    const visitor = "127.0.0.6";
    const tab = async (pathname: string) => {
      const answer = await request(nginx, "GET", pathname, { from: visitor });
      const html = answer.body.toString();
      // The stylesheet and images it links, and the scripts its islands loader names.
      const loads = [
        ...new Set([...html.matchAll(/["'](\/(?:assets|images)\/[^"'\s]+)["']/g)].map((match) => match[1]!)),
      ];
      const statuses = await Promise.all(
        loads.map(async (url) => (await request(nginx, "GET", url, { from: visitor })).status),
      );
      return [answer.status, ...statuses];
    };
    const tabs = await Promise.all(["/", "/blog", "/about", "/blog", "/"].map(tab));
    expect(tabs.flat().every((status) => status === 200)).toBe(true);
    expect(tabs.every((statuses) => statuses.length >= 3)).toBe(true);
  });

  it(
    "rolling restart under load: each process in turn gets SIGTERM and starts again; no request fails, no write is lost",
    async () => {
      const started = Date.now();
      const restarts: Array<{ port: number; exitCode: number | null; stoppedAt: number; upAt: number }> = [];
      const restarting = (async () => {
        await sleep(1500);
        for (let i = 0; i < apps.length; i++) {
          const stoppedAt = Date.now();
          const exitCode = await apps[i]!.stop();
          apps[i] = await startAppProcess(ports[i]!, environment, dir);
          restarts.push({ port: ports[i]!, exitCode, stoppedAt: stoppedAt - started, upAt: Date.now() - started });
          await sleep(NGINX_TAKES_BACK_MS);
        }
      })();
      const result = await loadUntil("rolling", restarting);
      await restarting;
      const duration = Date.now() - started;
      const failures = result.requests.filter(isFailure);
      const lost = await record("rollingRestart", result, duration, { restarts });

      // Each drained cleanly (exit 0), and each served again after its restart.
      expect(restarts.map((r) => r.exitCode)).toEqual([0, 0]);
      const lines = nginx.accessLog();
      for (let i = 0; i < apps.length; i++) {
        const upAt = started + restarts[i]!.upAt;
        expect(lines.filter((line) => line.start > upAt && line.upstreams.includes(address(i))).length).toBeGreaterThan(
          0,
        );
      }
      expect(failures.length, describeFailures(failures)).toBe(0);
      expect(lost).toEqual([]);
      expect(result.posts.length).toBeGreaterThan(10);
    },
    LOAD_MS + 90_000,
  );

  it(
    "a process killed with SIGKILL under load: only requests in flight on it fail; those that come meanwhile wait for systemd to start it again",
    async () => {
      const started = Date.now();
      let killedAt = 0;
      // When its exit was seen. A killed process's connections close as the kernel tears it
      // down, after its memory: until then nginx may still send requests on them, which fail.
      let goneAt = 0;
      let upAgainAt = 0;
      const killing = (async () => {
        await sleep(Math.min(3000, LOAD_MS / 4));
        killedAt = Date.now();
        await apps[0]!.kill("SIGKILL");
        goneAt = Date.now();
        // The unit's Restart=on-failure, RestartSec=1. Its socket stayed open all the while.
        await sleep(1000);
        apps[0] = await startAppProcess(ports[0]!, environment, dir);
        upAgainAt = Date.now();
      })();
      onTestFinished(async () => {
        if (!apps[0]!.running()) apps[0] = await startAppProcess(ports[0]!, environment, dir);
      });
      // The checks below want more than 100 answers after the kill: waited for, not assumed of the rate.
      const result = await loadUntil("killed", killing, 150);
      const duration = Date.now() - started;
      const lines = nginx.accessLog();
      const byId = new Map(lines.map((line) => [line.requestId, line]));
      const killed = address(0);
      // What nginx had sent to the killed process and not yet had answered when it was
      // killed, or sent on one of its connections before noticing they were gone (within
      // 100 ms of its exit).
      const inFlight = lines.filter(
        (line) =>
          line.requestId.startsWith("killed-") &&
          line.upstreams.includes(killed) &&
          line.start <= goneAt + 100 &&
          line.end >= killedAt,
      );
      const failures = result.requests.filter(isFailure);
      const lost = await record("killed", result, duration, {
        inFlightOnKilledProcess: inFlight.length,
        readsSentAgainToTheOther: inFlight.filter((line) => line.upstreams.length > 1 && line.status < 500).length,
        failedWrites: failures.filter((f) => f.method !== "GET").length,
        failedReads: failures.filter((f) => f.method === "GET").length,
        // Sent to its socket after its exit, and answered by the process started again. A
        // figure, not a check: the failures at the kill make nginx leave the port alone for
        // 2-3 s, about as long as the restart, so how many come then is chance. The test
        // "connections the process had not yet accepted..." checks that they wait.
        answeredAfterRestart: lines.filter(
          (line) =>
            line.requestId.startsWith("killed-") &&
            line.start > goneAt + 100 &&
            line.upstreams.at(-1) === killed &&
            line.status < 500,
        ).length,
        restartedAfterMs: upAgainAt - goneAt,
      });
      const inFlightIds = new Set(inFlight.map((line) => line.requestId));
      const unexplained = failures.filter((f) => !inFlightIds.has(f.id));
      expect(
        unexplained.length,
        `${describeFailures(unexplained)} (killed at ${killedAt}, its exit seen at ${goneAt})`,
      ).toBe(0);
      for (const failure of failures) {
        const line = byId.get(failure.id)!;
        if (failure.method === "GET") {
          // A read is sent again to the other process, unless the killed one had begun its
          // answer: nginx had passed that on, and can only cut the visitor's connection.
          expect(line.upstreams, describeFailures([failure])).toEqual([killed]);
          expect(line.upstreamStatuses, describeFailures([failure])).toEqual(["200"]);
        } else {
          // A write that reached it is never sent again (it may have been made): 502.
          expect(line.status, describeFailures([failure])).toBe(502);
        }
      }
      // After it died, every request was answered: by the other process, or,
      // having waited on the socket, by the process systemd started again.
      const after = lines.filter((line) => line.requestId.startsWith("killed-") && line.start > goneAt + 100);
      expect(after.length).toBeGreaterThan(100);
      expect(after.every((line) => line.upstreamStatuses.at(-1) !== "502" && line.status < 500)).toBe(true);
      expect(lost).toEqual([]);
    },
    LOAD_MS + 90_000,
  );

  it(
    "the database restarts under load: /healthz says 503 meanwhile, the processes reconnect by themselves, and no acknowledged write is lost",
    async () => {
      const started = Date.now();
      const pids = apps.map((app) => app.pid);
      const health: Array<{ at: number; process: number; status: number }> = [];
      let stoppedAt = 0;
      let startedAgainAt = 0;
      let healthyAt = 0;
      const probe = async () =>
        Promise.all(
          apps.map(async (app, i) => {
            const status = await fetch(`${app.url}/healthz`).then(
              (answer) => answer.status,
              () => 0,
            );
            health.push({ at: Date.now(), process: i, status });
            return status;
          }),
        );
      // Every page the load reads is in both processes' caches before the database goes: a page
      // never rendered cannot be served without it (503 is then the right answer).
      for (const app of apps) for (const path of readPaths) await fetch(`${app.url}${path}`);
      const restarting = (async () => {
        await sleep(Math.min(3000, LOAD_MS / 4));
        stoppedAt = Date.now();
        cluster.stop();
        // Down for two seconds and at least five rounds of probes (a loaded machine answers slowly), checked all along.
        for (let rounds = 0; rounds < 5 || Date.now() < stoppedAt + 2000; rounds += 1) {
          await probe();
          await sleep(200);
        }
        cluster.start();
        startedAgainAt = Date.now();
        while (!(await probe()).every((status) => status === 200)) {
          if (Date.now() > startedAgainAt + 20_000) throw new Error("the processes did not reconnect in 20 s");
          await sleep(50);
        }
        healthyAt = Date.now();
      })();
      // More than 100 answers after it is healthy again are checked below: waited for, not assumed.
      const result = await loadUntil(
        "database",
        restarting.then(() => sleep(3000)),
        120,
      );
      await restarting;
      const duration = Date.now() - started;
      const failures = result.requests.filter(isFailure);
      const lost = await record("databaseRestart", result, duration, {
        databaseDownMs: startedAgainAt - stoppedAt,
        reconnectedMsAfterStart: healthyAt - startedAgainAt,
        failedWhileDown: failures.length,
        failedReads: failures.filter((f) => f.method === "GET").length,
        failedWrites: failures.filter((f) => f.method !== "GET").length,
      });

      // /healthz said 503 on both processes while the database was down, and neither process exited.
      for (const i of [0, 1]) {
        const down = health.filter((h) => h.process === i && h.at > stoppedAt && h.at < startedAgainAt);
        expect(down.length).toBeGreaterThan(3);
        expect(down.every((h) => h.status === 503)).toBe(true);
      }
      expect(apps.map((app) => app.running())).toEqual([true, true]);
      expect(apps.map((app) => app.pid)).toEqual(pids);
      // The pages the load reads were cached: they answered all along, stale while it was down (ADR 075).
      expect(
        failures.filter((f) => f.method === "GET"),
        describeFailures(failures),
      ).toEqual([]);
      // Requests failed only while the database was away: none that started once both were healthy again.
      const afterwards = failures.filter((f) => f.start >= healthyAt || f.end < stoppedAt);
      expect(afterwards.length, describeFailures(afterwards)).toBe(0);
      expect(result.requests.filter((r) => r.start >= healthyAt).length).toBeGreaterThan(100);
      // Writes went on after it, through both processes' new connections.
      expect(result.posts.filter((post) => post.createdAt >= healthyAt).length).toBeGreaterThan(0);
      expect(lost).toEqual([]);
      for (const app of apps) expect(tail(app.logFile, 400)).not.toMatch(/"level":60/);
    },
    LOAD_MS + 90_000,
  );
});
