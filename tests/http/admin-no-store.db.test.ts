import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, startServer, TEST_ADMIN, type TestServer } from "../support/server";

/**
 * Admin answers are kept by no cache (ADR 047): every admin screen's
 * document and its `.data` answer (React Router's request for a client
 * navigation), signed in or not, redirects and error pages included, carry
 * `Cache-Control: no-store`, set in one place (server/admin-headers.ts).
 * Public pages keep their own caching.
 */

let server: TestServer;
let admin: ApiClient;
let invitePath: string;

beforeAll(async () => {
  server = await startServer();
  admin = new ApiClient(server.url);
  await admin.signIn();
  const invite = await admin.post("/api/admin/invites", {
    email: "new-admin@example.com",
    password: TEST_ADMIN.password,
  });
  expect(invite.status).toBe(201);
  invitePath = new URL(invite.json.link as string).pathname;
});
afterAll(() => server?.stop());

const get = (path: string, cookie = "") =>
  fetch(server.url + path, { redirect: "manual", headers: cookie ? { Cookie: cookie } : {} });

/** The admin screens: posts (/admin), inbox, booking, subscribers, analytics, administrators, audit, settings, images, account, pages and a page's editor. */
const SCREENS = [
  "/admin",
  "/admin/messages",
  "/admin/booking",
  "/admin/subscribers",
  "/admin/analytics",
  "/admin/administrators",
  "/admin/audit",
  "/admin/settings",
  "/admin/images",
  "/admin/account",
  "/admin/pages",
  "/admin/pages/landing",
];
/** React Router's data request for a screen: /admin.data, /admin/messages.data, ... */
const dataPath = (path: string) => `${path}.data`;

describe("Cache-Control: no-store on every admin answer", () => {
  it.each(SCREENS)("%s: the document and its .data answer, signed in", async (path) => {
    const page = await get(path, admin.cookie);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    expect(page.headers.get("cache-control")).toBe("no-store");
    const data = await get(dataPath(path), admin.cookie);
    expect(data.status).toBe(200);
    expect(await data.text()).not.toMatch(/^<!DOCTYPE/i);
    expect(data.headers.get("cache-control")).toBe("no-store");
  });

  it.each(SCREENS)("%s: the redirect to the sign-in page, signed out, as a document and as data", async (path) => {
    const page = await get(path);
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toMatch(/^\/admin\/login/);
    expect(page.headers.get("cache-control")).toBe("no-store");
    const data = await get(dataPath(path));
    // React Router answers a data request's redirect as 202, the target in its body.
    expect(data.status).toBe(202);
    expect(await data.text()).toContain("/admin/login");
    expect(data.headers.get("cache-control")).toBe("no-store");
  });

  it("the sign-in, setup and invitation pages, and their data", async () => {
    for (const path of ["/admin/login", "/admin/setup", invitePath]) {
      for (const url of [path, dataPath(path)]) {
        const answer = await get(url);
        expect(answer.status, url).toBeLessThan(500);
        expect(answer.headers.get("cache-control"), url).toBe("no-store");
      }
    }
  });

  it("error answers: a dead invitation link, an unknown admin path, the API signed out, in any spelling", async () => {
    for (const url of [
      `/admin/invite/${"x".repeat(43)}`,
      "/admin/no-such-screen",
      "/api/admin/messages",
      "/api/auth/me",
      "/ADMIN/messages",
      "/%61dmin/audit.data",
    ]) {
      const answer = await get(url);
      expect(answer.headers.get("cache-control"), url).toBe("no-store");
    }
  });

  it("public pages keep their caching, and paths that only start like /admin are public", async () => {
    for (const url of ["/", "/blog", "/administrators", "/admin-x"]) {
      const answer = await get(url);
      // The last two are the catch-all's landing page, answered 404 (ADR 054).
      expect(answer.status, url).toBe(url.startsWith("/admin") ? 404 : 200);
      expect(answer.headers.get("cache-control"), url).not.toBe("no-store");
      expect(answer.headers.get("cache-control"), url).toMatch(/public/);
    }
  });
});
