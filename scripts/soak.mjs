#!/usr/bin/env node
// npm run soak: a minute of mixed ordinary and hostile traffic against the
// built site (issue 13). Every answer must be below 500, and the process must
// stay up, healthy and within its memory.
//
// It starts the built site as `npm start` runs it (scripts/lib/built-site.mjs:
// the same node flags, so the 160 MB heap cap) on a new SQLite database (or
// --database-url, an empty database you made), adds --posts posts through the
// admin API, then sends traffic on --connections connections, all to
// 127.0.0.1, split between these groups:
//   hits       /, /blog, /blog/{slug}, /about, /api/posts, /rss.xml, with and
//              without a browser's Accept-Encoding (autocannon)
//   misses     unique query strings, unknown paths, /blog?page=N, articles
//              just written, /api/posts with many limit/offset pairs (autocannon)
//   admin      post creates and updates with the session of one sign-in,
//              --write-rate per second (autocannon)
//   contact    contact messages from 256 client addresses (X-Forwarded-For,
//              believed from loopback), so the later ones are throttled (5 an
//              hour each); every tenth fills the honeypot (autocannon)
//   sign-in    wrong passwords for the administrator and unknown e-mails from
//              16 addresses (autocannon); each failure the throttle lets
//              through costs a 32 MiB scrypt hash
//   malformed  one raw socket per request: bad JSON, wrong JSON types, deep
//              nesting, NUL and lone surrogates in fields and paths, a raw NUL
//              byte, bad percent-encoding, 8 KB and 64 KB URLs, wrong methods,
//              --huge-mb bodies with and without Content-Length (chunked) on
//              every route that reads a body, broken forms and multipart
//   healthz    one GET /healthz every 250 ms besides (not a connection of the
//              budget): how long a visitor waits while the event loop is busy
// Every loop stops by itself after --duration seconds or its request budget.
//
// It prints one table (per group: requests, answers by status class,
// connection errors, p50/p99/max latency), then every 5xx with the request
// that got it, the server's error log lines, a crash if there was one with
// the requests in flight at that moment, and the server's peak RSS (VmRSS
// sampled every 100 ms, and VmHWM). JSON in .tmp/soak-results.json.
// A 503 with Retry-After to a malformed request is the server shedding load
// as designed (one image upload at a time, ADR 032): counted apart, not failed.
// Exit 1 when any other answer was a 5xx, a request got no answer in 15 s, the
// server died, or it was not healthy at the end. A reset connection while a
// huge body is still being sent is reported, not failed: the server may close
// early. A script, not a test.
//
// Options: --duration S (60)  --connections N (50)  --posts N (20)
//          --write-rate N (2 admin writes/s; each one makes every cached page stale)
//          --huge-mb N (256)
//          --skip TEXT,TEXT (leave out malformed requests whose name contains one)
//          --groups hits,misses,admin,contact,sign-in,malformed (the groups to run; default all)
//          --database-url URL (default: a new SQLite file)  --json FILE
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { assertBuilt, childrenMemoryOf, memoryOf, root, startBuiltSite } from "./lib/built-site.mjs";
import { article, seedPosts, signIn } from "./lib/posts.mjs";

const { values: opts } = parseArgs({
  options: {
    duration: { type: "string", default: "60" },
    connections: { type: "string", default: "50" },
    posts: { type: "string", default: "20" },
    "write-rate": { type: "string", default: "2" },
    "huge-mb": { type: "string", default: "256" },
    skip: { type: "string", default: "" },
    groups: { type: "string", default: "hits,misses,admin,contact,sign-in,malformed" },
    "database-url": { type: "string" },
    json: { type: "string", default: path.join(root, ".tmp", "soak-results.json") },
  },
});
const duration = Number(opts.duration);
const connections = Number(opts.connections);
const postCount = Number(opts.posts);
const writeRate = Number(opts["write-rate"]);
const hugeBytes = Number(opts["huge-mb"]) * 1024 * 1024;
const skip = opts.skip
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean);
const GROUPS = ["hits", "misses", "admin", "contact", "sign-in", "malformed"];
const enabled = new Set(opts.groups.split(",").map((s) => s.trim()));
for (const group of enabled) {
  if (!GROUPS.includes(group)) {
    console.error(`--groups: unknown group ${group} (known: ${GROUPS.join(", ")})`);
    process.exit(2);
  }
}
for (const [name, value] of Object.entries({
  duration,
  connections,
  posts: postCount,
  "write-rate": writeRate,
  "huge-mb": hugeBytes,
})) {
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`--${name} must be a positive number`);
    process.exit(2);
  }
}
const ADMIN = { email: "soak@example.com", password: "soak-password-123" };
/** Seconds a request may take before it counts as a connection error. */
const REQUEST_TIMEOUT_S = 15;

assertBuilt("npm run soak");

// ---------------------------------------------------------------- the site
let dir;
let databaseUrl = opts["database-url"];
if (!databaseUrl) {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ojai-soak-"));
  databaseUrl = path.join(dir, "site.db");
}
const site = await startBuiltSite({
  DATABASE_URL: databaseUrl,
  SEED_SAMPLE_POSTS: "false",
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
});
const { port } = new URL(site.url);
const seededAt = Date.now();
const slugs = await seedPosts(site.url, ADMIN, postCount);
const cookie = await signIn(site.url, ADMIN);
console.log(
  `soak: site on ${site.url} (${databaseUrl.startsWith("postgres") ? "PostgreSQL" : "SQLite"}), ${postCount} posts added in ` +
    `${((Date.now() - seededAt) / 1000).toFixed(1)} s; ${duration} s of traffic on ${connections} connections...`,
);

// ---------------------------------------------------------------- bookkeeping
const startedAt = Date.now();
const deadline = startedAt + duration * 1000;
let stopping = false;
/** @type {null | { afterS: number, code: number | null, signal: string | null, inFlight: string[] }} */
let crash = null;
/** 5xx answers: "group | request | status" -> { count, body } */
const serverErrors = new Map();
function record5xx(group, request, status, body) {
  const key = `${group} | ${request} | ${status}`;
  const entry = serverErrors.get(key) ?? { group, request, status, count: 0, body: String(body ?? "").slice(0, 300) };
  entry.count++;
  serverErrors.set(key, entry);
}

/** Splits the connections between the groups that run; each gets one at least. */
const SHARES = { hits: 0.3, misses: 0.2, admin: 0.06, contact: 0.1, "sign-in": 0.1, malformed: 0.24 };
const enabledShare = GROUPS.filter((g) => enabled.has(g)).reduce((sum, g) => sum + SHARES[g], 0);
const share = (group) => Math.max(1, Math.round((connections * SHARES[group]) / enabledShare));

const autocannonRuns = [];
/**
 * One group on autocannon: `requests` cycle per connection (autocannon's
 * per-request setup), bounded by the duration and a request budget. Every
 * 5xx is recorded with the request that got it.
 */
function runAutocannon(group, { requests, connections: groupConnections, overallRate }) {
  if (!enabled.has(group)) return null;
  const wrapped = requests.map((request) => ({
    ...request,
    setupRequest(req, context) {
      const out = request.setupRequest ? request.setupRequest(req, context) : req;
      context.last = `${out.method} ${out.path.length > 120 ? `${out.path.slice(0, 120)}...` : out.path}`;
      return out;
    },
    onResponse(status, body, context, headers) {
      if (status >= 500) record5xx(group, context.last, status, body);
      request.onResponse?.(status, body, context, headers);
    },
  }));
  const instance = autocannon({
    url: site.url,
    connections: groupConnections,
    duration,
    maxOverallRequests: groupConnections * duration * 5000,
    timeout: REQUEST_TIMEOUT_S,
    requests: wrapped,
    ...(overallRate ? { overallRate } : {}),
  });
  autocannonRuns.push(instance);
  return instance.then((result) => ({
    group,
    connections: groupConnections,
    requests: result["1xx"] + result["2xx"] + result["3xx"] + result["4xx"] + result["5xx"],
    byClass: { "2xx": result["2xx"], "3xx": result["3xx"], "4xx": result["4xx"], "5xx": result["5xx"] },
    connectionErrors: result.errors,
    timeouts: result.timeouts,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count])),
  }));
}

const JSON_HEADERS = { "content-type": "application/json" };
const ADMIN_HEADERS = { ...JSON_HEADERS, cookie };
const BROWSER_ENCODING = { "accept-encoding": "gzip, deflate, br, zstd" };

// ---------------------------------------------------------------- hits
const hitPaths = ["/", "/blog", `/blog/${slugs[0]}`, "/about", "/api/posts", "/rss.xml"];
const hits = runAutocannon("hits", {
  connections: share("hits"),
  requests: hitPaths.flatMap((p) => [
    { method: "GET", path: p },
    { method: "GET", path: p, headers: BROWSER_ENCODING },
  ]),
});

// ---------------------------------------------------------------- admin writes
/** Slugs the admin group has created: the misses group reads them while they are new. */
const written = [];
let writeCount = 0;
function soakPost(slug, version, k) {
  return {
    title: `Soak post ${k}, version ${version}`,
    slug,
    excerpt: `Written by npm run soak (version ${version}).`,
    content: article(10_000 + k + version, 300),
    category: ["Web Design", "Cloud", "Research", "Operations"][k % 4],
    readTime: "2 min read",
    published: true,
    publishDate: new Date().toISOString(),
    headerImage: null,
  };
}
const adminConnections = Math.min(share("admin"), writeRate);
const admin = runAutocannon("admin", {
  connections: adminConnections,
  overallRate: writeRate,
  requests: [
    {
      method: "POST",
      path: "/api/admin/posts",
      headers: ADMIN_HEADERS,
      setupRequest(req, context) {
        context.k = writeCount++;
        context.slug = `soak-write-${context.k}`;
        return { ...req, body: JSON.stringify(soakPost(context.slug, 0, context.k)) };
      },
      onResponse(status, body, context) {
        if (status !== 201) return;
        context.id = JSON.parse(body).id;
        written.push(context.slug);
      },
    },
    {
      method: "PUT",
      headers: ADMIN_HEADERS,
      setupRequest(req, context) {
        return {
          ...req,
          path: `/api/admin/posts/${context.id ?? "not-created"}`,
          body: JSON.stringify(soakPost(context.slug, 1, context.k)),
        };
      },
    },
  ],
});

// ---------------------------------------------------------------- misses
let missCount = 0;
const missPaths = [
  (n) => `/?utm_source=soak&n=${n}`,
  (n) => `/blog?ref=${n}`,
  (n) => `/blog?page=${2 + (n % 40)}`,
  (n) => `/blog/${written.at(-1 - (n % 5)) ?? slugs[n % slugs.length]}`,
  (n) => `/blog/${slugs[n % slugs.length]}?n=${n}`,
  (n) => `/about?n=${n}`,
  (n) => `/soak-unknown-${n}`,
  (n) => `/blog/soak-unknown-${n}`,
  (n) => `/api/posts?limit=${1 + (n % 100)}&offset=${n % 1000}`,
  (n) => `/api/posts?n=${n}`,
  (n) => `/api/posts/soak-unknown-${n}`,
  (n) => `/rss.xml?n=${n}`,
];
const misses = runAutocannon("misses", {
  connections: share("misses"),
  requests: missPaths.map((pathOf, i) => ({
    method: "GET",
    setupRequest: (req) => ({
      ...req,
      path: pathOf(missCount++),
      headers: i % 2 ? { ...req.headers, ...BROWSER_ENCODING } : req.headers,
    }),
  })),
});

// ---------------------------------------------------------------- contact
let contactCount = 0;
const contact = runAutocannon("contact", {
  connections: share("contact"),
  requests: [
    {
      method: "POST",
      path: "/api/contact",
      headers: JSON_HEADERS,
      setupRequest(req) {
        const k = contactCount++;
        const address = `198.18.0.${k % 256}`;
        return {
          ...req,
          headers: { ...req.headers, "x-forwarded-for": address },
          body: JSON.stringify({
            name: `Soak visitor ${k}`,
            email: `visitor-${k}@example.com`,
            phone: k % 2 ? "+1 805 555 0100" : "",
            preferredContact: ["email", "phone", "text"][k % 3],
            service: ["media", "systems", "research"][k % 3],
            message: `Message ${k} from the soak: please call me back about a project.`,
            ...(k % 10 === 9 ? { website: "http://spam.example" } : {}),
          }),
        };
      },
    },
  ],
});

// ---------------------------------------------------------------- sign-in failures
let signInCount = 0;
const signInFailures = runAutocannon("sign-in", {
  connections: share("sign-in"),
  requests: [
    {
      method: "POST",
      path: "/api/auth/login",
      headers: JSON_HEADERS,
      setupRequest(req) {
        const k = signInCount++;
        return {
          ...req,
          headers: { ...req.headers, "x-forwarded-for": `198.19.0.${k % 16}` },
          body: JSON.stringify({
            email: k % 2 ? ADMIN.email : `nobody-${k}@example.com`,
            password: `wrong-password-${k}`,
          }),
        };
      },
    },
  ],
});

// ---------------------------------------------------------------- malformed
/** A request head as bytes on the wire; `target` goes out exactly as given. */
function head(method, target, headers = {}) {
  const lines = [`${method} ${target} HTTP/1.1`, `Host: 127.0.0.1:${port}`, "Connection: close"];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join("\r\n")}\r\n\r\n`;
}
const withBody = (method, target, headers, body) => ({
  head: head(method, target, { ...headers, "Content-Length": Buffer.byteLength(body) }),
  body,
});
const json = (target, body, headers = {}) =>
  withBody(
    "POST",
    target,
    { "Content-Type": "application/json", ...headers },
    typeof body === "string" ? body : JSON.stringify(body),
  );
const get = (target) => ({ head: head("GET", target) });
const deep = (depth) => "[".repeat(depth) + "]".repeat(depth);
const validContact = (k, fields) => ({
  name: `Malformed ${k}`,
  email: `malformed-${k}@example.com`,
  phone: "",
  preferredContact: "email",
  service: "media",
  message: "A message with something odd in it.",
  ...fields,
});
const oddPost = (k, fields) => ({ ...soakPost(`soak-odd-${k}`, 0, k), ...fields });
/** Contact requests of the malformed group come from their own addresses. */
const oddAddress = (k) => ({ "X-Forwarded-For": `198.19.1.${k % 256}` });
const ADMIN_RAW = { Cookie: cookie };
const MULTIPART = "multipart/form-data; boundary=soakboundary";

/** Bodies of --huge-mb: `prefix`, then filler, sent until the server answers or closes. */
const huge = (method, target, contentType, prefix, { chunked, headers = {} }) => ({
  head: head(method, target, {
    "Content-Type": contentType,
    ...headers,
    ...(chunked ? { "Transfer-Encoding": "chunked" } : { "Content-Length": hugeBytes }),
  }),
  stream: { prefix, bytes: hugeBytes, chunked },
});
const hugeTargets = [
  ["POST /api/contact", "POST", "/api/contact", "application/json", '{"name":"', {}],
  ["POST /api/auth/login", "POST", "/api/auth/login", "application/json", '{"email":"', {}],
  ["POST /admin/login (form)", "POST", "/admin/login", "application/x-www-form-urlencoded", "email=", {}],
  ["POST /admin/setup (form)", "POST", "/admin/setup", "application/x-www-form-urlencoded", "token=", {}],
  ["POST /api/admin/posts (admin)", "POST", "/api/admin/posts", "application/json", '{"title":"', ADMIN_RAW],
  ["POST /api/admin/preview (admin)", "POST", "/api/admin/preview", "application/json", '{"content":"', ADMIN_RAW],
  [
    "POST /api/admin/upload (admin)",
    "POST",
    "/api/admin/upload",
    MULTIPART,
    '--soakboundary\r\nContent-Disposition: form-data; name="image"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n',
    ADMIN_RAW,
  ],
];

let malformedCount = 0;
/** Each attack: a name for the report, and the request for its k-th use. */
const attacks = [
  ["bad JSON POST /api/contact", () => json("/api/contact", '{"name": "x", "email": ')],
  ["bad JSON POST /api/auth/login", () => json("/api/auth/login", '{"email": "a@b.c", "password": ')],
  ["bad JSON POST /api/admin/posts (admin)", () => json("/api/admin/posts", '{"title": "x",', ADMIN_RAW)],
  [
    "wrong JSON types POST /api/contact",
    (k) => json("/api/contact", { name: ["a"], email: { a: 1 }, message: 5, phone: true }, oddAddress(k)),
  ],
  ["wrong JSON types POST /api/auth/login", () => json("/api/auth/login", { email: ["a"], password: { p: 1 } })],
  [
    "wrong JSON types POST /api/admin/posts (admin)",
    () => json("/api/admin/posts", { title: 1, slug: [], excerpt: {}, content: null, published: "yes" }, ADMIN_RAW),
  ],
  ["JSON array POST /api/contact", (k) => json("/api/contact", "[1,2,3]", oddAddress(k))],
  ["deep JSON (30k) POST /api/contact", (k) => json("/api/contact", deep(30_000), oddAddress(k))],
  ["deep JSON (200k) POST /api/auth/login", () => json("/api/auth/login", deep(200_000))],
  ["deep JSON (200k) POST /api/admin/posts (admin)", () => json("/api/admin/posts", deep(200_000), ADMIN_RAW)],
  [
    "NUL in fields POST /api/contact",
    (k) => json("/api/contact", validContact(k, { name: "Null\u0000Byte" }), oddAddress(k)),
  ],
  [
    "NUL in fields POST /api/admin/posts (admin)",
    (k) => json("/api/admin/posts", oddPost(k, { title: "Null\u0000Byte" }), ADMIN_RAW),
  ],
  [
    "NUL in fields POST /api/auth/login",
    () => json("/api/auth/login", { email: "a\u0000@example.com", password: "x\u0000y" }),
  ],
  [
    "lone surrogate POST /api/contact",
    (k) => json("/api/contact", validContact(k, { message: "half \ud800 a pair" }), oddAddress(k)),
  ],
  [
    "lone surrogate POST /api/admin/posts (admin)",
    (k) => json("/api/admin/posts", oddPost(k, { excerpt: "half \udc00 a pair" }), ADMIN_RAW),
  ],
  ["NUL in path GET /blog/%00", () => get("/blog/%00")],
  ["NUL in path GET /api/posts/%00", () => get("/api/posts/%00")],
  ["NUL in path GET /%00", () => get("/%00")],
  ["NUL in path GET /images/%00.webp", () => get("/images/%00.webp")],
  ["NUL in query GET /blog?page=%00", () => get("/blog?page=%00")],
  ["raw NUL byte in the request line", () => ({ head: head("GET", "/blog/a\u0000b") })],
  ["bad percent-encoding GET /blog/%E0%A4%A", () => get("/blog/%E0%A4%A")],
  ["bad percent-encoding GET /blog/%zz", () => get("/blog/%zz")],
  ["bad percent-encoding GET /%", () => get("/%")],
  ["bad percent-encoding GET /api/posts/%C0%AF", () => get("/api/posts/%C0%AF")],
  ["bad percent-encoding GET /blog?page=%FF", () => get("/blog?page=%FF")],
  ["bad percent-encoding GET /api/posts?limit=%", () => get("/api/posts?limit=%")],
  ["8 KB query GET /blog?q=...", () => get(`/blog?q=${"a".repeat(8000)}`)],
  ["64 KB query GET /blog?q=...", () => get(`/blog?q=${"a".repeat(64_000)}`)],
  ["8 KB path GET /blog/aaa...", () => get(`/blog/${"a".repeat(8000)}`)],
  ["8 KB path GET /api/posts/aaa...", () => get(`/api/posts/${"a".repeat(8000)}`)],
  ["wrong method DELETE /api/posts", () => ({ head: head("DELETE", "/api/posts") })],
  [
    "wrong method PUT /api/contact",
    (k) =>
      withBody(
        "PUT",
        "/api/contact",
        { "Content-Type": "application/json", ...oddAddress(k) },
        JSON.stringify(validContact(k)),
      ),
  ],
  ["wrong method PATCH /blog", () => withBody("PATCH", "/blog", { "Content-Type": "application/json" }, "{}")],
  ["wrong method POST /rss.xml", () => withBody("POST", "/rss.xml", { "Content-Type": "text/plain" }, "hello")],
  ["wrong method POST /healthz", () => withBody("POST", "/healthz", { "Content-Type": "text/plain" }, "hello")],
  ["wrong method TRACE /", () => ({ head: head("TRACE", "/") })],
  ["wrong method PROPFIND /about", () => ({ head: head("PROPFIND", "/about") })],
  ["wrong method DELETE /api/admin/posts (signed out)", () => ({ head: head("DELETE", "/api/admin/posts") })],
  [
    "broken form POST /admin/login",
    () =>
      withBody(
        "POST",
        "/admin/login",
        { "Content-Type": "application/x-www-form-urlencoded" },
        "%%%&&==&email=%ZZ&password",
      ),
  ],
  [
    "text/plain POST /api/contact",
    (k) => withBody("POST", "/api/contact", { "Content-Type": "text/plain", ...oddAddress(k) }, "hello"),
  ],
  [
    "not an image POST /api/admin/upload (admin)",
    () =>
      withBody(
        "POST",
        "/api/admin/upload",
        { "Content-Type": MULTIPART, ...ADMIN_RAW },
        '--soakboundary\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nnot a png\r\n--soakboundary--\r\n',
      ),
  ],
  [
    "unterminated multipart POST /api/admin/upload (admin)",
    () =>
      withBody(
        "POST",
        "/api/admin/upload",
        { "Content-Type": MULTIPART, ...ADMIN_RAW },
        '--soakboundary\r\nContent-Disposition: form-data; name="image"',
      ),
  ],
  ...hugeTargets.flatMap(([name, method, target, type, prefix, headers]) => [
    [`huge declared ${name}`, () => huge(method, target, type, prefix, { chunked: false, headers })],
    [`huge chunked ${name}`, () => huge(method, target, type, prefix, { chunked: true, headers })],
  ]),
].filter(([name]) => !skip.some((s) => name.includes(s)));

/** What the server answered to each attack: name -> { status or error -> count }. */
const attackOutcomes = new Map();
const inFlightRaw = new Set();

/**
 * One request on a new socket. Answers the status, or an error when the
 * connection ended without one; `ms` is the time to the status line.
 */
function rawRequest({ head: requestHead, body, stream }) {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect(Number(port), "127.0.0.1");
    let received = Buffer.alloc(0);
    let status;
    let ms;
    let done = false;
    let grace;
    const finish = (error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(grace);
      socket.destroy();
      resolve(
        status !== undefined
          ? {
              status,
              ms,
              body: received.toString("utf8", received.indexOf("\r\n\r\n") + 4),
              retryAfter: /\r\nretry-after:/i.test(received.toString("latin1", 0, received.indexOf("\r\n\r\n"))),
            }
          : { error, ms: performance.now() - started },
      );
    };
    const timer = setTimeout(() => finish("timeout"), REQUEST_TIMEOUT_S * 1000);
    socket.on("data", (chunk) => {
      if (received.length < 64 * 1024) received = Buffer.concat([received, chunk]);
      if (status === undefined && received.length >= 12) {
        status = Number(received.toString("latin1", 9, 12));
        ms = performance.now() - started;
        // The server closes after its answer (Connection: close); give it a moment.
        grace = setTimeout(() => finish(), 2000);
      }
    });
    socket.on("end", () => finish("closed without an answer"));
    socket.on("close", () => finish("closed without an answer"));
    socket.on("error", (error) => finish(error.code ?? error.message));
    const write = (data) =>
      new Promise((resolveWrite) => {
        if (socket.destroyed || done) return resolveWrite(false);
        if (socket.write(data)) return resolveWrite(true);
        const settle = (ok) => {
          socket.off("drain", onDrain);
          socket.off("close", onClose);
          resolveWrite(ok);
        };
        const onDrain = () => settle(true);
        const onClose = () => settle(false);
        socket.once("drain", onDrain);
        socket.once("close", onClose);
      });
    socket.once("connect", async () => {
      await write(requestHead);
      if (body !== undefined) await write(body);
      if (!stream) return;
      const frame = (data) =>
        stream.chunked
          ? Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from("\r\n")])
          : data;
      let sent = 0;
      const prefix = Buffer.from(stream.prefix);
      if (!(await write(frame(prefix)))) return;
      sent += prefix.length;
      while (sent < stream.bytes && status === undefined && !done) {
        const piece = sent + FILLER.length <= stream.bytes ? FILLER : FILLER.subarray(0, stream.bytes - sent);
        if (!(await write(frame(piece)))) return;
        sent += piece.length;
      }
      if (stream.chunked && status === undefined && !done) await write("0\r\n\r\n");
    });
  });
}
const FILLER = Buffer.alloc(1024 * 1024, "a");

const rawGroup = {
  latencies: [],
  byClass: { "2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0 },
  shed: 0,
  requests: 0,
  connectionErrors: 0,
  timeouts: 0,
};
async function malformedConnection() {
  const budget = duration * 500;
  for (let i = 0; i < budget && !stopping && Date.now() < deadline; i++) {
    const k = malformedCount++;
    const [name, make] = attacks[k % attacks.length];
    const label = `${name} #${k}`;
    inFlightRaw.add(label);
    const outcome = await rawRequest(make(k));
    inFlightRaw.delete(label);
    const key = outcome.status !== undefined ? String(outcome.status) : outcome.error;
    const counts = attackOutcomes.get(name) ?? {};
    counts[key] = (counts[key] ?? 0) + 1;
    attackOutcomes.set(name, counts);
    if (outcome.status === 503 && outcome.retryAfter) {
      // Load shed as designed (one image upload at a time, ADR 032): an
      // answer, not a fault, so counted apart from the 5xx that fail the soak.
      rawGroup.requests++;
      rawGroup.latencies.push(outcome.ms);
      rawGroup.shed++;
    } else if (outcome.status !== undefined) {
      rawGroup.requests++;
      rawGroup.latencies.push(outcome.ms);
      const statusClass = `${Math.floor(outcome.status / 100)}xx`;
      if (statusClass in rawGroup.byClass) rawGroup.byClass[statusClass]++;
      if (outcome.status >= 500) record5xx("malformed", name, outcome.status, outcome.body);
    } else if (!crash) {
      rawGroup.connectionErrors++;
      if (outcome.error === "timeout") rawGroup.timeouts++;
    }
  }
}
const malformedConnections = share("malformed");
const malformed =
  enabled.has("malformed") && attacks.length
    ? Promise.all(Array.from({ length: malformedConnections }, malformedConnection))
    : Promise.resolve();

// ---------------------------------------------------------------- healthz probe
const probe = {
  latencies: [],
  byClass: { "2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0 },
  requests: 0,
  connectionErrors: 0,
  timeouts: 0,
};
async function probeHealth() {
  for (let i = 0; i < duration * 4 + 1 && !stopping && Date.now() < deadline; i++) {
    const started = performance.now();
    try {
      const response = await fetch(`${site.url}/healthz`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_S * 1000) });
      await response.arrayBuffer();
      probe.requests++;
      probe.latencies.push(performance.now() - started);
      probe.byClass[`${Math.floor(response.status / 100)}xx`]++;
      if (response.status >= 500) record5xx("healthz", "GET /healthz", response.status, "");
    } catch (error) {
      if (!crash) probe.connectionErrors++;
      if (!crash && error.name === "TimeoutError") probe.timeouts++;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
const probing = probeHealth();

// ---------------------------------------------------------------- memory and crashes
let peakRss = memoryOf(site.pid);
let rendererPeakRss = childrenMemoryOf(site.pid);
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, memoryOf(site.pid));
  rendererPeakRss = Math.max(rendererPeakRss, childrenMemoryOf(site.pid));
}, 100);
let highWater = 0;
let stopRequested = false;
site.exited.then(({ code, signal }) => {
  if (stopRequested) return;
  crash = { afterS: Math.round((Date.now() - startedAt) / 100) / 10, code, signal, inFlight: [...inFlightRaw] };
  stopping = true;
  for (const run of autocannonRuns) run.stop();
});

const groups = (await Promise.all([hits, misses, admin, contact, signInFailures])).filter(Boolean);
await Promise.all([malformed, probing]);
clearInterval(sampler);

// ---------------------------------------------------------------- after the traffic
let healthyAtEnd = false;
if (!crash) {
  highWater = memoryOf(site.pid, "VmHWM");
  try {
    healthyAtEnd = (await fetch(`${site.url}/healthz`, { signal: AbortSignal.timeout(10_000) })).status === 200;
  } catch {
    // no answer: healthyAtEnd stays false
  }
  // A server dying just now: let its exit be seen before deciding.
  if (!healthyAtEnd) await Promise.race([site.exited, new Promise((r) => setTimeout(r, 2000))]);
}
stopping = true;
stopRequested = true;
const logErrors = await serverErrorLines(site.logFile);
const logTail = crash ? tailOf(site.logFile, 15) : [];
await site.stop();
if (dir) fs.rmSync(dir, { recursive: true, force: true });

/** The server's error and fatal log lines, and what it printed that is not JSON, counted by kind. */
async function serverErrorLines(file) {
  const kinds = new Map();
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line) continue;
    let kind;
    try {
      const entry = JSON.parse(line);
      if (entry.level < 50) continue;
      const url = entry.req?.url ? `${entry.req.method} ${entry.req.url.slice(0, 100)}` : "";
      kind = [url, entry.res?.statusCode, entry.msg, entry.err?.message?.slice(0, 200)].filter(Boolean).join(" | ");
    } catch {
      // Stack traces and objects printed to stderr: their first line says enough.
      if (/^\s|^[{}]/.test(line)) continue;
      kind = `(not JSON) ${line.slice(0, 200)}`;
    }
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return [...kinds].map(([kind, count]) => ({ kind, count }));
}
function tailOf(file, count) {
  return fs
    .readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .slice(-count)
    .map((l) => l.slice(0, 300));
}

// ---------------------------------------------------------------- the report
const percentile = (values, p) => {
  if (values.length === 0) return 0;
  const sorted = values.slice().sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
};
const fromLoop = (group, loopConnections, loop) => ({
  group,
  connections: loopConnections,
  requests: loop.requests,
  byClass: loop.byClass,
  connectionErrors: loop.connectionErrors,
  timeouts: loop.timeouts,
  p50: percentile(loop.latencies, 50),
  p99: percentile(loop.latencies, 99),
  max: percentile(loop.latencies, 100),
});
const rows = [
  ...groups,
  ...(enabled.has("malformed") ? [fromLoop("malformed", attacks.length ? malformedConnections : 0, rawGroup)] : []),
  fromLoop("healthz probe", 1, probe),
];
const total5xx = rows.reduce((sum, r) => sum + r.byClass["5xx"], 0);
const totalErrors = rows.reduce((sum, r) => sum + r.connectionErrors, 0);
const totalTimeouts = rows.reduce((sum, r) => sum + r.timeouts, 0);
const totalRequests = rows.reduce((sum, r) => sum + r.requests, 0);
const mb = (bytes) => Math.round((bytes / 1024 / 1024) * 10) / 10;

console.log(
  "\n| group | connections | requests | 2xx | 3xx | 4xx | 5xx | connection errors | of which timeouts | p50 ms | p99 ms | max ms |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const r of rows) {
  const c = r.byClass;
  console.log(
    `| ${r.group} | ${r.connections} | ${r.requests} | ${c["2xx"]} | ${c["3xx"]} | ${c["4xx"]} | ${c["5xx"]} | ${r.connectionErrors} | ${r.timeouts} | ${r.p50} | ${r.p99} | ${r.max} |`,
  );
}
console.log(
  `| total | ${connections} | ${totalRequests} | | | | ${total5xx} | ${totalErrors} | ${totalTimeouts} | | | |`,
);
console.log(
  `\n5xx answers: ${total5xx}; connection errors: ${totalErrors} (${totalTimeouts} of them no answer in ${REQUEST_TIMEOUT_S} s); peak RSS ${mb(peakRss)} MB sampled` +
    (highWater ? `, VmHWM ${mb(highWater)} MB` : "") +
    ` (markdown renderer apart: ${mb(rendererPeakRss)} MB)` +
    `; ${written.length} posts written, ${contactCount} contact and ${signInCount} sign-in requests sent` +
    (rawGroup.shed ? `; ${rawGroup.shed} malformed requests answered 503 with Retry-After (busy, not failed)` : "") +
    (skip.length ? `; skipped: ${skip.join(", ")}` : ""),
);
if (serverErrors.size) {
  console.log("\nEvery 5xx, by request:");
  for (const e of serverErrors.values())
    console.log(
      `  ${e.count} x ${e.status} ${e.group}: ${e.request}  ->  ${e.body.replace(/\s+/g, " ").slice(0, 160)}`,
    );
}
const resets = [...attackOutcomes].flatMap(([name, counts]) =>
  Object.entries(counts)
    .filter(([key]) => !/^\d+$/.test(key))
    .map(([key, count]) => `${count} x ${key}: ${name}`),
);
if (resets.length) {
  console.log("\nMalformed requests that got no answer:");
  for (const line of resets) console.log(`  ${line}`);
}
if (logErrors.length) {
  console.log("\nServer log, error and fatal lines (and anything not JSON), by kind:");
  for (const { kind, count } of logErrors.slice(0, 30)) console.log(`  ${count} x ${kind}`);
}
if (crash) {
  console.log(`\nTHE SERVER DIED after ${crash.afterS} s (exit code ${crash.code}, signal ${crash.signal}).`);
  console.log(`Malformed requests in flight then: ${crash.inFlight.join("; ") || "none"}`);
  console.log("Last lines of its log:");
  for (const line of logTail) console.log(`  ${line}`);
} else if (!healthyAtEnd) {
  console.log("\nThe server did not answer GET /healthz with 200 after the traffic.");
}

const results = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  database: databaseUrl.startsWith("postgres") ? "postgres" : "sqlite",
  options: {
    duration,
    connections,
    posts: postCount,
    writeRate,
    hugeMb: Number(opts["huge-mb"]),
    skip,
    groups: [...enabled],
  },
  rows,
  total5xx,
  totalConnectionErrors: totalErrors,
  totalTimeouts,
  shedWithRetryAfter: rawGroup.shed,
  peakRssMb: mb(peakRss),
  vmHwmMb: mb(highWater),
  serverErrors: [...serverErrors.values()],
  serverLogErrors: logErrors,
  attackOutcomes: Object.fromEntries(attackOutcomes),
  crash,
  healthyAtEnd,
};
fs.mkdirSync(path.dirname(opts.json), { recursive: true });
fs.writeFileSync(opts.json, JSON.stringify(results, null, 2));
console.log(`\nJSON (with what each malformed request got) written to ${path.relative(root, opts.json)}`);
const failed = total5xx > 0 || totalTimeouts > 0 || crash !== null || !healthyAtEnd;
console.log(failed ? "\nsoak: FAILED" : "\nsoak: passed (no 5xx, no timeout, no crash, healthy at the end)");
process.exit(failed ? 1 : 0);
