import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  hasSecretAddress,
  isSignedLinkPath,
  isPreviewPath,
  looksLikeToken,
  redactSecretPath,
  redactTokenSegments,
} from "./secret-paths";

const TOKEN = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde";

describe("secret paths (ADRs 038, 044)", () => {
  it.each([
    [`/blog/preview/${TOKEN}`, "/blog/preview/[token]"],
    [`/Blog/Preview/${TOKEN}?x=1`, "/blog/preview/[token]"],
    [`/blog/pr%65view/${TOKEN}`, "/blog/preview/[token]"],
    [`/admin/invite/${TOKEN}`, "/admin/invite/[token]"],
    [`/%61dmin/invite/${TOKEN}/more`, "/admin/invite/[token]"],
    [`//blog/preview/${TOKEN}`, "//blog/preview/[token]"],
    [`/pages/preview/privacy/${TOKEN}`, "/pages/preview/[token]"],
    [`/book/manage/${TOKEN}`, "/book/manage/[token]"],
    [`/Book/Manage/${TOKEN}?from=2026-12-01`, "/book/manage/[token]"],
    [`/admin/setup?token=${TOKEN}`, "/admin/setup?[redacted]"],
    [`/admin/setup?x=1&TOKEN=${TOKEN}`, "/admin/setup?[redacted]"],
    [`/admin/setup?%74oken=${TOKEN}`, "/admin/setup?[redacted]"],
    [`/anything?to%6Ben=${TOKEN}&q=%E0%A4%A`, "/anything?[redacted]"],
  ])("%s is logged as %s, without its token", (url, logged) => {
    expect(redactSecretPath(url)).toBe(logged);
    expect(redactSecretPath(url)).not.toContain(TOKEN.slice(0, 10));
  });

  it.each(["/blog/some-post", "/blog?page=2", "/admin/invite", "/%E0%A4%A", "/blog/search?q=preview"])(
    "%s is logged as it is",
    (url) => expect(redactSecretPath(url)).toBe(url),
  );

  it("knows the pages whose address holds a secret: share links, invitations, the setup page", () => {
    for (const url of [
      `/blog/preview/${TOKEN}`,
      `/Admin/Invite/${TOKEN}`,
      `/%61dmin/invite/${TOKEN}`,
      `/admin/setup?token=${TOKEN}`,
      "/admin/setup",
      "/ADMIN/SETUP/",
    ]) {
      expect(hasSecretAddress(url), url).toBe(true);
    }
    for (const url of ["/admin", "/admin/invite", "/admin/setups", "/blog/some-post", "/blog/search?q=token"]) {
      expect(hasSecretAddress(url), url).toBe(false);
    }
  });

  it("knows a booking's and a subscriber's signed links however the router would accept them (ADR 071, 072)", () => {
    expect(isSignedLinkPath(`/book/manage/${TOKEN}`)).toBe(true);
    expect(isSignedLinkPath(`/BOOK/m%61nage/${TOKEN}`)).toBe(true);
    expect(hasSecretAddress(`/book/manage/${TOKEN}`)).toBe(true);
    expect(isSignedLinkPath(`/newsletter/confirm/${TOKEN}`)).toBe(true);
    expect(isSignedLinkPath(`/Newsletter/%75nsubscribe/${TOKEN}`)).toBe(true);
    expect(isSignedLinkPath("/newsletter")).toBe(false);
    expect(isSignedLinkPath("/book")).toBe(false);
    expect(isSignedLinkPath("/book?from=2026-12-01")).toBe(false);
  });

  it("knows a share link however the router would accept it", () => {
    expect(isPreviewPath(`/blog/preview/${TOKEN}`)).toBe(true);
    expect(isPreviewPath(`/BLOG/pr%65view/${TOKEN}`)).toBe(true);
    expect(isPreviewPath("/blog/previews")).toBe(false);
    expect(isPreviewPath("/blog/some-post")).toBe(false);
  });
});

describe("token-looking segments (the not-found log, ADR 054)", () => {
  /** Fixed, random-looking bytes: the same every run. */
  const bytes = (i: number, n: number) => createHash("sha256").update(String(i)).digest().subarray(0, n);

  it("finds the site's tokens (24 and 32 bytes of base64url), hex digests and UUIDs, all but a rare few", () => {
    const formats: Record<string, [make: (i: number) => string, missesAtMost: number]> = {
      "base64url, 24 bytes": [(i) => bytes(i, 24).toString("base64url"), 4],
      "base64url, 32 bytes": [(i) => bytes(i, 32).toString("base64url"), 1],
      "hex, 20 bytes": [(i) => bytes(i, 20).toString("hex"), 0],
      "HEX, 32 bytes": [(i) => bytes(i, 32).toString("hex").toUpperCase(), 0],
      UUID: [
        (i) =>
          bytes(i, 16)
            .toString("hex")
            .replace(/^(.{8})(.{4})(.{4})(.{4})/, "$1-$2-$3-$4-"),
        3,
      ],
    };
    for (const [format, [make, missesAtMost]] of Object.entries(formats)) {
      let misses = 0;
      for (let i = 0; i < 2000; i++) {
        const token = make(i);
        if (!looksLikeToken(token)) misses++;
        // Inside a longer segment, beside other characters: the same.
        expect(looksLikeToken(`x.${token}.json`)).toBe(looksLikeToken(token));
      }
      expect(misses, format).toBeLessThanOrEqual(missesAtMost);
    }
  });

  it.each([
    "my-long-blog-post-title-about-things",
    "IMG_20190512_123456.jpg",
    "iso27001-certification-explained",
    "windows10-vs-windows11-upgrade-path",
    "2019-05-12-some-post-title",
    "AnnualReport2019Final.pdf",
    "Q3FY24-earnings-call-transcript",
    "short1a2b3c",
    // A slug with a short unique id at its end, as a person or a test writes one.
    "dismiss-me-desktop-mx0mh7lq",
    "release-2026-11-28-v3b2c1",
  ])("leaves %j alone", (segment) => {
    expect(looksLikeToken(segment)).toBe(false);
  });

  it.each([
    [`/blog/preview/${TOKEN}`, "/blog/preview/[token]"],
    [`/blog/previewx${TOKEN}`, "/blog/[token]"],
    [`/docs/${TOKEN}/file.pdf`, "/docs/[token]/file.pdf"],
    [`/a;jsessionid=${TOKEN}/b`, "/[token]/b"],
    // Words before a token do not hide it.
    ["/reset-password-Xa8dk2jD92kdm2KD9dk2", "/[token]"],
    // Nor does a piece of one that reads as a word ("eul"): a share link's token that a suite run logged.
    ["/shared/lOagRO_eul_5oqkP04C1JvZ4M3--brlavQ4kk61ksBw", "/shared/[token]"],
    ["/old/my-long-blog-post-title-about-things/", "/old/my-long-blog-post-title-about-things/"],
  ])("a log keeps %j as %j", (path, kept) => {
    expect(redactTokenSegments(path)).toBe(kept);
  });

  it("takes linear time on a long segment", () => {
    const long = "aB3-".repeat(250_000);
    const started = performance.now();
    expect(redactTokenSegments(`/${long}`)).toBe("/[token]");
    expect(performance.now() - started).toBeLessThan(500);
  });
});
