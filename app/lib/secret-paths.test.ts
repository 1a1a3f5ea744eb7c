import { describe, expect, it } from "vitest";
import { isPreviewPath, redactSecretPath } from "./secret-paths";

const TOKEN = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde";

describe("secret paths (ADRs 038, 044)", () => {
  it.each([
    [`/blog/preview/${TOKEN}`, "/blog/preview/[token]"],
    [`/Blog/Preview/${TOKEN}?x=1`, "/blog/preview/[token]"],
    [`/blog/pr%65view/${TOKEN}`, "/blog/preview/[token]"],
    [`/admin/invite/${TOKEN}`, "/admin/invite/[token]"],
    [`/%61dmin/invite/${TOKEN}/more`, "/admin/invite/[token]"],
    [`//blog/preview/${TOKEN}`, "//blog/preview/[token]"],
  ])("%s is logged as %s, without its token", (url, logged) => {
    expect(redactSecretPath(url)).toBe(logged);
    expect(redactSecretPath(url)).not.toContain(TOKEN.slice(0, 10));
  });

  it.each(["/blog/some-post", "/blog?page=2", "/admin/invite", "/%E0%A4%A", "/blog/search?q=preview"])(
    "%s is logged as it is",
    (url) => expect(redactSecretPath(url)).toBe(url),
  );

  it("knows a share link however the router would accept it", () => {
    expect(isPreviewPath(`/blog/preview/${TOKEN}`)).toBe(true);
    expect(isPreviewPath(`/BLOG/pr%65view/${TOKEN}`)).toBe(true);
    expect(isPreviewPath("/blog/previews")).toBe(false);
    expect(isPreviewPath("/blog/some-post")).toBe(false);
  });
});
