import type { RouteConfigEntry } from "@react-router/dev/routes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES_CSV_PATH } from "~/lib/admin-lists";
import { BACKUP_PATH } from "~/lib/backup";
import routes from "~/routes";
import { startServer, type TestServer } from "../support/server";

/**
 * The admin's sign-in check is middleware on two layouts (the admin screens'
 * and /api/admin's), so a route cannot forget it. This walks the route table
 * (app/routes.ts) and proves it, on the built server: every route under
 * /admin (but the pages a stranger must reach) and /api/admin sits under one
 * of the two layouts, and refuses a request without a session, for each
 * method, as a document and as React Router's data request. A route added
 * outside the layouts, or a layout without its middleware, fails here.
 */

/** The pages a stranger must reach: signing in, the first setup, signing out, an invitation. */
const OPEN = new Set(["admin/login", "admin/setup", "admin/logout", "admin/invite/:token"]);
const PAGE_LAYOUT = "routes/admin/layout.tsx";
const API_LAYOUT = "routes/api/admin.layout.ts";

interface Leaf {
  path: string;
  /** The layout files the route sits under, outermost first. */
  layouts: string[];
}

function leaves(entries: RouteConfigEntry[], layouts: string[] = [], parentPath = ""): Leaf[] {
  return entries.flatMap((entry) => {
    const path = entry.path === undefined ? parentPath : [parentPath, entry.path].filter(Boolean).join("/");
    if (entry.children?.length) return leaves(entry.children, entry.path ? layouts : [...layouts, entry.file], path);
    return entry.index ? [] : [{ path, layouts }];
  });
}

const ALL = leaves(routes);
const isAdminPage = (path: string) => (path === "admin" || path.startsWith("admin/")) && !OPEN.has(path);
const isAdminApi = (path: string) => path.startsWith("api/admin/");
const PAGES = ALL.filter((leaf) => isAdminPage(leaf.path));
const APIS = ALL.filter((leaf) => isAdminApi(leaf.path));

/** A URL for a route pattern: each parameter filled, the splat with a path no route has. */
function urlOf(pattern: string): string {
  const segments = pattern.split("/").flatMap((segment) => {
    if (segment === "*") return ["no-such/thing"];
    if (segment.endsWith("?")) return [];
    if (segment === ":name") return ["landing"];
    if (segment.startsWith(":")) return ["0123456789abcdef"];
    return [segment];
  });
  return `/${segments.join("/")}`;
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.stop());

const send = (method: string, url: string) =>
  fetch(server.url + url, {
    method,
    redirect: "manual",
    // A same-origin write, so that only the sign-in check can refuse it (not the cross-origin check).
    headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
    body: method === "GET" ? undefined : "intent=delete&id=1",
  });

describe("the route table: every admin route refuses a stranger", () => {
  it("finds the admin routes, each under its layout's sign-in middleware", () => {
    // Not vacuous: the screens and the JSON API as the table has them today, at least.
    expect(PAGES.length).toBeGreaterThanOrEqual(12);
    expect(APIS.length).toBeGreaterThanOrEqual(34);
    for (const leaf of PAGES) expect(leaf.layouts, leaf.path).toContain(PAGE_LAYOUT);
    for (const leaf of APIS) expect(leaf.layouts, leaf.path).toContain(API_LAYOUT);
    // Nothing else is under them: the sign-in page must stay reachable.
    for (const leaf of ALL.filter((l) => l.layouts.includes(PAGE_LAYOUT))) expect(isAdminPage(leaf.path)).toBe(true);
    for (const leaf of ALL.filter((l) => l.layouts.includes(API_LAYOUT))) expect(isAdminApi(leaf.path)).toBe(true);
  });

  it.each(PAGES.map((leaf) => leaf.path))(
    "/%s: redirected to sign-in, read or written, as a document or data",
    async (pattern) => {
      const url = urlOf(pattern);
      for (const method of ["GET", "POST"]) {
        const page = await send(method, url);
        expect(page.status, `${method} ${url}`).toBe(302);
        expect(page.headers.get("location"), `${method} ${url}`).toBe("/admin/login");
        expect(await page.text()).toBe("");
        // React Router answers a data request's redirect as 202, the target in its body.
        const data = await send(method, `${url}.data`);
        expect(data.status, `${method} ${url}.data`).toBe(202);
        expect(await data.text(), `${method} ${url}.data`).toContain("/admin/login");
      }
    },
  );

  it.each(APIS.map((leaf) => urlOf(leaf.path)))("%s: 401 to every method", async (url) => {
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
      const answer = await send(method, url);
      expect(answer.status, `${method} ${url}`).toBe(401);
      expect(await answer.json(), `${method} ${url}`).toEqual({ error: "Authentication required" });
      expect(answer.headers.get("cache-control"), `${method} ${url}`).toBe("no-store");
    }
  });

  // The two admin answers Express gives before React Router (server/app.ts) keep their own
  // check, after their method's (another method is a 405 there, as before).
  it.each([
    ["POST", BACKUP_PATH],
    ["GET", MESSAGES_CSV_PATH],
  ])("%s %s (answered before React Router): 401", async (method, url) => {
    const answer = await send(method, url);
    expect(answer.status).toBe(401);
    expect(await answer.json()).toEqual({ error: "Authentication required" });
  });
});
