import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ SEED_SAMPLE_POSTS: "true" });
});
afterAll(() => server?.stop());

const get = (path: string) => fetch(server.url + path, { redirect: "manual" });

describe("public pages render on the server", () => {
  it.each(["/", "/home", "/blog", "/about"])("%s answers 200 with HTML", async (path) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/text\/html/);
    expect(await response.text()).toMatch(/^<!DOCTYPE html>/i);
  });

  // Not a soft 404 (ADR 054): the landing page, but with 404 and noindex.
  it("unknown paths render the landing page with 404 and noindex", async () => {
    const [home, other] = await Promise.all([get("/"), get("/no/such/page")]);
    const headline = /Technology Solutions For People \+ By People/;
    expect(home.status).toBe(200);
    expect(other.status).toBe(404);
    expect(other.headers.get("x-robots-tag")).toBe("noindex");
    expect(other.headers.get("content-type")).toMatch(/text\/html/);
    expect(await home.text()).toMatch(headline);
    expect(await other.text()).toMatch(headline);
  });

  it("seeds sample posts on an empty database and shows them", async () => {
    const html = await (await get("/blog")).text();
    expect(html).toContain("Tenant Onboarding in Under 30 Minutes with Cloud Governance");
  });

  it("/blog/{slug} has the article in the server HTML; an unknown slug is a real 404", async () => {
    const article = await get("/blog/tenant-onboarding-in-under-30-minutes");
    expect(article.status).toBe(200);
    const html = await article.text();
    expect(html).toContain("<h2>The checklist we automated</h2>");
    expect(html).toMatch(
      /<link rel="canonical" href="http:\/\/localhost:\d+\/blog\/tenant-onboarding-in-under-30-minutes"/,
    );
    const missing = await get("/blog/does-not-exist");
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("Page not found");
  });

  it("/admin redirects to sign-in without a session", async () => {
    const response = await get("/admin");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/admin/login");
    expect((await get("/admin/login")).status).toBe(200);
  });
});

describe("headers", () => {
  it("public pages' scripts are this site's files or inline scripts the CSP allows by hash; no nonce in the page", async () => {
    const [article] = (await (await get("/api/posts?limit=1")).json()) as Array<{ slug: string }>;
    for (const path of ["/", "/blog", "/about", `/blog/${article!.slug}`, "/blog/no-such-article"]) {
      const response = await get(path);
      const csp = response.headers.get("content-security-policy")!;
      const scriptSrc = /script-src ([^;]+)/.exec(csp)![1]!.split(" ");
      const html = await response.text();
      expect(html, path).not.toContain("nonce=");
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length, path).toBeGreaterThan(0);
      expect(scripts.length, path).toBe(html.split("<script").length - 1);
      for (const [, attributes, body] of scripts) {
        if (/\bsrc="\//.test(attributes!)) expect(scriptSrc).toContain("'self'");
        else if (!/type="application\/ld\+json"/.test(attributes!)) {
          expect(scriptSrc, `${path}: ${body!.slice(0, 60)}`).toContain(
            `'sha256-${createHash("sha256").update(body!).digest("base64")}'`,
          );
        }
      }
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("x-powered-by")).toBeNull();
    }
  });

  it("the admin's scripts carry each answer's own CSP nonce", async () => {
    const [a, b] = await Promise.all([get("/admin/login"), get("/admin/login")]);
    const nonce = /'nonce-([^']+)'/.exec(a.headers.get("content-security-policy")!)?.[1];
    expect(nonce).toBeTruthy();
    expect(b.headers.get("content-security-policy")).not.toContain(nonce);
    const scripts = [...(await a.text()).matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it("hashed assets are cached for a year as immutable", async () => {
    const html = await (await get("/")).text();
    const asset = /\/assets\/[^"]+\.js/.exec(html)?.[0];
    expect(asset).toBeTruthy();
    const response = await get(asset!);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  it("/healthz answers 200 with the database state", async () => {
    const response = await get("/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", database: "ok" });
  });
});

describe("a public page's first load (ADR 031)", () => {
  const publicPaths = async () => {
    const [article] = (await (await get("/api/posts?limit=1")).json()) as Array<{ slug: string }>;
    return ["/", "/blog", "/about", `/blog/${article!.slug}`, "/blog/no-such-article"];
  };

  it("public pages link the stylesheet the admin links, and carry none inline", async () => {
    const admin = await (await get("/admin/login")).text();
    const href = /<link\s[^>]*\brel="stylesheet"[^>]*\shref="([^"]+)"/.exec(admin)?.[1];
    expect(href, "the admin links the stylesheet").toMatch(/^\/assets\/[\w-]+\.css$/);
    for (const path of await publicPaths()) {
      const html = await (await get(path)).text();
      const head = html.slice(0, html.indexOf("</head>"));
      expect(head, path).toMatch(new RegExp(`<link\\s[^>]*\\brel="stylesheet"[^>]*\\shref="${href}"`));
      expect(html, path).not.toMatch(/<style[\s>]/);
    }
  });

  it("public pages start their islands from the end of the body, and name no script in their markup", async () => {
    for (const path of await publicPaths()) {
      const html = await (await get(path)).text();
      const loader = /<script data-modules="\/assets\/hydrate-islands-[\w-]+\.js"[^>]*>[^<]+<\/script>/.exec(html);
      expect(loader, `${path}: the islands loader`).not.toBeNull();
      // After it, only the end of the document (and React's empty markers).
      expect(html.slice(loader!.index + loader![0].length), path).toMatch(/^(<!--[^>]*-->)*<\/body><\/html>$/);
      expect(html, path).not.toMatch(/<script\s[^>]*\bsrc=|<link\s[^>]*\brel="modulepreload"/);
    }
  });
});
