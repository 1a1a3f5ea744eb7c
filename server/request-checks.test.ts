import type { NextFunction, Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { refuseCrossOriginWrites } from "./request-checks";

/**
 * The cross-origin write check (docs/product/contract.md#cross-origin-writes) on its own, with the
 * headers browsers send: a post from a page with `Referrer-Policy: no-referrer` says `Origin: null`
 * even to its own site (a booking's link, ADR 071), and only Sec-Fetch-Site tells where it came from.
 */
const SITE = "https://example.com";

function check(method: string, headers: Record<string, string>, path = "/api/contact"): number | "next" {
  let outcome: number | "next" = "next";
  const req = {
    method,
    originalUrl: path,
    protocol: "https",
    get: (name: string) => (name === "host" ? "example.com" : headers[name.toLowerCase()]),
  } as unknown as Request;
  const res = {
    status(code: number) {
      outcome = code;
      return { json: () => undefined };
    },
  } as unknown as Response;
  refuseCrossOriginWrites(SITE)(req, res, (() => undefined) as NextFunction);
  return outcome;
}

describe("refuseCrossOriginWrites", () => {
  it("lets reads and the site's own writes through", () => {
    expect(check("GET", { origin: "https://evil.example" })).toBe("next");
    expect(check("POST", { origin: SITE })).toBe("next");
    expect(check("POST", {})).toBe("next");
    expect(check("POST", { "sec-fetch-site": "same-origin" })).toBe("next");
  });

  it("refuses another origin's writes", () => {
    expect(check("POST", { origin: "https://evil.example" })).toBe(403);
    expect(check("DELETE", { "sec-fetch-site": "cross-site" })).toBe(403);
  });

  it("takes `Origin: null` only when the browser says the post came from this site", () => {
    expect(check("POST", { origin: "null", "sec-fetch-site": "same-origin" })).toBe("next");
    expect(check("POST", { origin: "null", "sec-fetch-site": "cross-site" })).toBe(403);
    expect(check("POST", { origin: "null", "sec-fetch-site": "same-site" })).toBe(403);
    expect(check("POST", { origin: "null" })).toBe(403);
  });

  it("takes `Origin: null` without Sec-Fetch-Site (Safari before 16.4) on a signed link's path alone", () => {
    for (const path of ["/book/manage/abc", "/newsletter/unsubscribe/abc.data", "/Newsletter/Confirm/abc?x=1"]) {
      expect(check("POST", { origin: "null" }, path)).toBe("next");
      expect(check("POST", { origin: "null", "sec-fetch-site": "cross-site" }, path)).toBe(403);
      expect(check("POST", { origin: "https://evil.example" }, path)).toBe(403);
    }
    for (const path of ["/api/admin/posts", "/admin/login", "/blog/preview/abc", "/admin/invite/abc", "/book"]) {
      expect(check("POST", { origin: "null" }, path)).toBe(403);
    }
  });
});
