import { describe, expect, it } from "vitest";
import { articleUrl, shareUrl } from "./social-share";

describe("share links", () => {
  const article = { url: articleUrl("https://example.org", "hello-world"), title: "Hello & welcome" };

  it("builds the public article address from SITE_URL", () => {
    expect(article.url).toBe("https://example.org/blog/hello-world");
    expect(articleUrl("https://example.org/", "a-b")).toBe("https://example.org/blog/a-b");
  });

  it("Twitter/X intent carries text and url", () => {
    const url = new URL(shareUrl("twitter", article));
    expect(url.origin + url.pathname).toBe("https://twitter.com/intent/tweet");
    expect(url.searchParams.get("text")).toBe("Hello & welcome");
    expect(url.searchParams.get("url")).toBe("https://example.org/blog/hello-world");
  });

  it("LinkedIn share-offsite carries url", () => {
    const url = new URL(shareUrl("linkedin", article));
    expect(url.origin + url.pathname).toBe("https://www.linkedin.com/sharing/share-offsite/");
    expect(url.searchParams.get("url")).toBe("https://example.org/blog/hello-world");
  });

  it("Facebook sharer carries u", () => {
    const url = new URL(shareUrl("facebook", article));
    expect(url.origin + url.pathname).toBe("https://www.facebook.com/sharer/sharer.php");
    expect(url.searchParams.get("u")).toBe("https://example.org/blog/hello-world");
  });
});
