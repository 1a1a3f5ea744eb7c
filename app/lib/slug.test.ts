import { describe, expect, it } from "vitest";
import { isWellFormedSlug, slugify } from "./slug";

describe("slugify", () => {
  it.each([
    ["Hello World", "hello-world"],
    ["  Cloud -- Governance!! 2026 ", "cloud-governance-2026"],
    ["Ünïcode & Friends", "n-code-friends"],
    ["---", ""],
    ["already-a-slug", "already-a-slug"],
    ["A_B.C/D", "a-b-c-d"],
  ])("%j becomes %j", (title, slug) => {
    expect(slugify(title)).toBe(slug);
  });
});

describe("isWellFormedSlug", () => {
  it("accepts slugs the rule leaves unchanged", () => {
    expect(isWellFormedSlug("iot-garden-monitor-2")).toBe(true);
  });
  it.each(["Upper", "two--hyphens", "-leading", "trailing-", "space here", "ümlaut", ""])("rejects %j", (slug) => {
    expect(isWellFormedSlug(slug)).toBe(false);
  });
});
