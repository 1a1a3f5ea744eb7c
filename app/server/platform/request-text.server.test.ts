import { describe, expect, it } from "vitest";
import { hostOf, printable } from "./request-text.server";

describe("text from a request", () => {
  it("keeps printable ASCII as it is and percent-encodes anything else", () => {
    const path = "/blog/a-post?x=1";
    expect(printable(path)).toBe(path);
    expect(printable("/caf\u00e9 x\u0000")).toBe("/caf%E9%20x%00");
    expect(printable("")).toBe("");
  });

  it("answers a URL's host in lower case, cut, or null for none and for a URL past 2,048 characters", () => {
    expect(hostOf("https://News.Example.ORG/item?id=1", 253)).toBe("news.example.org");
    expect(hostOf("https://news.example.org/", 4)).toBe("news");
    expect(hostOf("not a url", 253)).toBeNull();
    expect(hostOf(undefined, 253)).toBeNull();
    expect(hostOf(`https://a.example/${"x".repeat(2048)}`, 253)).toBeNull();
  });
});
