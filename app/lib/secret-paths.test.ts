import { describe, expect, it } from "vitest";
import { hasSecretAddress, isPreviewPath, redactSecretPath } from "./secret-paths";

const TOKEN = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde";

describe("secret paths (ADRs 038, 044)", () => {
  it.each([
    [`/blog/preview/${TOKEN}`, "/blog/preview/[token]"],
    [`/Blog/Preview/${TOKEN}?x=1`, "/blog/preview/[token]"],
    [`/blog/pr%65view/${TOKEN}`, "/blog/preview/[token]"],
    [`/admin/invite/${TOKEN}`, "/admin/invite/[token]"],
    [`/%61dmin/invite/${TOKEN}/more`, "/admin/invite/[token]"],
    [`//blog/preview/${TOKEN}`, "//blog/preview/[token]"],
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

  it("knows a share link however the router would accept it", () => {
    expect(isPreviewPath(`/blog/preview/${TOKEN}`)).toBe(true);
    expect(isPreviewPath(`/BLOG/pr%65view/${TOKEN}`)).toBe(true);
    expect(isPreviewPath("/blog/previews")).toBe(false);
    expect(isPreviewPath("/blog/some-post")).toBe(false);
  });
});
