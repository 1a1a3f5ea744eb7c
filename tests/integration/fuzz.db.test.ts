import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWatchedServer, type WatchedServer } from "../support/hostile";
import type { ApiClient, TestServer } from "../support/server";

/**
 * Property-based fuzz of every API and form route, signed in and out (issue
 * 13): arbitrary JSON, forms and text (NUL, lone surrogates, 100 KB strings,
 * deep nesting, wrong types). The server never answers 5xx; a refusal is a
 * 4xx with a message; no request holds the event loop past its budget.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);

let watched: WatchedServer;
let server: TestServer;
let admin: ApiClient;
let postId: string;
let messageId: string;

beforeAll(async () => {
  watched = await startWatchedServer();
  ({ server, admin, postId, messageId } = watched);
});

afterAll(async () => {
  // Nothing above held the event loop past its budget (EVENT_LOOP_BUDGET_MS).
  await watched?.stopExpectingNoStalls();
});

// ------------------------------------------------------------ what is sent

const hostileText = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary" }), // any code point, lone surrogates included
  fc.string({ unit: "grapheme" }),
  fc.constantFrom("\u0000", "a\u0000b", "\ud800", "x\udfff", "\u{1F600}", "", " ", "a@b.co", "ada@example.com"),
  fc.constantFrom("x".repeat(100_000), "\u00e9".repeat(60_000), `a@${".".repeat(40_000)}@`, "[".repeat(50_000)),
);

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileText },
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(hostileText, { maxLength: 3 }),
  fc.dictionary(fc.string(), hostileText, { maxKeys: 3 }),
);

/** Every byte percent-encoded (a lone surrogate arrives as U+FFFD's bytes). */
const percentEncode = (text: string) =>
  [...Buffer.from(text.slice(0, 2000), "utf8")].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("");

/** A path segment or query value: any text, encoded, or malformed encodings. */
const urlText = fc.oneof(
  { weight: 4, arbitrary: hostileText.map(percentEncode) },
  fc.constantFrom(
    "%ED%A0%80",
    "%FF%FE",
    "%",
    "%zz",
    "%00",
    "a%00b",
    "..%2F..%2Fetc%2Fpasswd",
    "%C0%80",
    "x".repeat(8000),
  ),
);

/** An object with (some of) a route's own fields, each of any type. */
const fieldsOf = (names: string[]) =>
  fc.record(Object.fromEntries(names.map((name) => [name, hostileValue])), {
    requiredKeys: [],
  });

/** A JSON body as sent on the wire: the route's fields, any JSON at all, deep nesting, or not JSON. */
const jsonBody = (names: string[]) =>
  fc.oneof(
    { weight: 5, arbitrary: fieldsOf(names).map((value) => JSON.stringify(value)) },
    fc.jsonValue().map((value) => JSON.stringify(value)),
    fc.integer({ min: 1, max: 200_000 }).map((depth) => "[".repeat(depth) + "]".repeat(depth)),
    fc.integer({ min: 1, max: 50_000 }).map((depth) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth)),
    fc.string({ unit: "binary" }),
  );

/** A form body: the route's fields with any text, or raw bytes. */
const formBody = (names: string[]) =>
  fc.oneof(
    {
      weight: 5,
      arbitrary: fc
        .record(Object.fromEntries(names.map((name) => [name, hostileText])) as Record<string, fc.Arbitrary<string>>, {
          requiredKeys: [],
        })
        .map((fields) => new URLSearchParams(fields as Record<string, string>).toString()),
    },
    fc.string({ unit: "binary" }),
  );

// ------------------------------------------------------------ the routes

const contactFields = ["name", "email", "phone", "preferredContact", "service", "message", "website", "elapsedMs"];
const postFields = [
  "title",
  "slug",
  "excerpt",
  "content",
  "category",
  "author",
  "readTime",
  "published",
  "publishDate",
  "headerImage",
];

// [method, path, body kind, the route's fields]
const jsonRoutes: Array<[string, string, string[]]> = [
  ["POST", "/api/contact", contactFields],
  ["POST", "/api/auth/login", ["email", "password", "code"]],
  ["POST", "/api/auth/setup", ["token", "email", "password"]],
  ["POST", "/api/auth/logout", []],
  ["POST", "/api/auth/2fa/setup", ["password"]],
  ["POST", "/api/auth/2fa/enable", ["code"]],
  ["POST", "/api/auth/2fa/disable", ["password"]],
  ["POST", "/api/auth/password", ["currentPassword", "newPassword"]],
  ["DELETE", "/api/auth/sessions", []],
  ["DELETE", "/api/auth/sessions/0123456789abcdef0123456789abcdef", []],
  ["POST", "/api/admin/posts", postFields],
  ["PUT", "/api/admin/posts/:post", [...postFields, "baseUpdatedAt"]],
  ["PUT", "/api/admin/posts/:post/autosave", [...postFields, "baseUpdatedAt"]],
  ["DELETE", "/api/admin/posts/:other", []],
  ["PATCH", "/api/admin/messages/:message", ["read"]],
  ["POST", "/api/admin/invites", ["email", "password"]],
  ["DELETE", "/api/admin/administrators/:other", ["password"]],
  ["POST", "/api/admin/preview", ["content"]],
  ["POST", "/api/admin/posts/check", ["content", "publishDate", "slug", "id"]],
  ["PUT", "/api/admin/content/contact", ["messages"]],
  ["PUT", "/api/admin/content/about", ["tagline", "mission", "solutions", "story"]],
  ["PUT", "/api/admin/content/about/draft", ["document", "baseVersion", "overDraftVersion"]],
  ["DELETE", "/api/admin/content/about/draft", []],
  ["POST", "/api/admin/content/about/share-links", []],
  ["DELETE", "/api/admin/content/about/share-links/:other", []],
  ["POST", "/api/admin/redirects", ["from", "to", "status"]],
  ["PUT", "/api/admin/redirects/:other", ["from", "to", "status"]],
  // Read as CSV whatever the type says.
  ["POST", "/api/admin/redirects.csv", ["from", "to", "status"]],
];
const formRoutes: Array<[string, string, string[]]> = [
  ["POST", "/admin/login", ["email", "password", "code", "step"]],
  [
    "POST",
    "/admin/account",
    ["intent", "code", "password", "currentPassword", "newPassword", "confirmPassword", "session"],
  ],
  ["POST", "/admin/setup", ["token", "email", "password", "confirm"]],
  ["POST", "/admin/messages", ["intent", "id", "email"]],
  ["POST", "/admin/administrators", ["intent", "id", "email", "password"]],
  ["POST", "/admin/logout", []],
];

const pathOf = (path: string) =>
  path
    .replace(":post", postId)
    .replace(":message", messageId)
    .replace(":other", "00000000-0000-4000-8000-000000000000");

/** Every client address is new, so throttles answer 429 only where a test means them to. */
let address = 0;
const nextAddress = () => `2001:db8:${(++address).toString(16)}::1`;

async function send(method: string, path: string, body: string, contentType: string, signedIn: boolean) {
  const response = await fetch(server.url + pathOf(path), {
    method,
    redirect: "manual",
    headers: {
      "Content-Type": contentType,
      "X-Forwarded-For": nextAddress(),
      ...(signedIn ? { Cookie: admin.cookie } : {}),
    },
    body,
  });
  return { status: response.status, text: await response.text(), type: response.headers.get("content-type") ?? "" };
}

describe.each([
  ["signed out", false],
  ["signed in", true],
])("%s", (_label, signedIn) => {
  it.each(jsonRoutes)(
    "%s %s: arbitrary JSON never answers 5xx; a refusal carries a message",
    async (method, path, fields) => {
      await fc.assert(
        fc.asyncProperty(jsonBody(fields), async (body) => {
          const answer = await send(method, path, body, "application/json", signedIn);
          expect(answer.status, answer.text.slice(0, 300)).toBeLessThan(500);
          if (answer.status >= 400 && answer.status !== 405) {
            const parsed = JSON.parse(answer.text) as { error?: unknown };
            expect(typeof parsed.error, answer.text.slice(0, 300)).toBe("string");
            expect((parsed.error as string).length).toBeGreaterThan(0);
          }
        }),
        { numRuns: RUNS },
      );
    },
  );

  it.each(formRoutes)("%s %s: arbitrary forms never answer 5xx", async (method, path, fields) => {
    await fc.assert(
      fc.asyncProperty(
        formBody(fields),
        fc.constantFrom("application/x-www-form-urlencoded", "text/plain", "multipart/form-data; boundary=x"),
        async (body, type) => {
          const answer = await send(method, path, body, type, signedIn);
          expect(answer.status, answer.text.slice(0, 300)).toBeLessThan(500);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("arbitrary paths and query strings on every public and API route never answer 5xx", async () => {
    const bases = [
      "/blog/",
      "/api/posts/",
      "/api/admin/posts/",
      "/api/admin/messages/",
      "/images/",
      "/blog?article=",
      "/blog?page=",
      "/blog/search?q=",
      "/blog/search?q=cloud&page=",
      "/api/posts?limit=",
      "/api/posts?offset=",
      "/api/admin/posts?q=",
      "/api/admin/posts?limit=",
      "/api/admin/posts?sort=title&offset=",
      "/api/admin/messages?offset=",
      "/api/admin/messages?q=",
      "/api/admin/messages?status=",
      "/api/admin/messages?email=",
      "/api/admin/messages.csv?q=",
      "/api/admin/messages.csv?status=unread&q=",
      "/admin?q=",
      "/admin?page=",
      "/admin/messages?page=",
      "/admin/messages?q=",
      "/admin/messages?status=",
      "/admin/setup?token=",
      "/api/admin/content/",
      "/api/admin/content/about/revisions/",
      "/api/admin/redirects/",
      "/api/admin/redirects?q=",
      "/api/admin/redirects?offset=",
      "/api/admin/not-found?limit=",
      "/api/admin/analytics?from=2026-01-01&to=",
      "/api/admin/analytics?to=2026-01-01&from=",
      "/api/admin/analytics.csv?to=2026-01-01&from=",
      "/pages/preview/about/",
      "/pages/preview/landing/",
      "/",
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...bases),
        urlText,
        fc.constantFrom("GET", "HEAD", "DELETE"),
        async (base, text, method) => {
          const answer = await fetch(server.url + base + text, {
            method,
            redirect: "manual",
            headers: signedIn ? { Cookie: admin.cookie } : {},
          });
          await answer.arrayBuffer();
          expect(answer.status).toBeLessThan(500);
        },
      ),
      { numRuns: RUNS * 2 },
    );
  });
});
