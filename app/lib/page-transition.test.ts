import { describe, expect, it } from "vitest";
import {
  FOCUS_HANDOVER_KEY,
  focusTargetId,
  followLink,
  handOverFocus,
  parseFocusAfter,
  takeFocusHandover,
  TRANSITION_ATTRIBUTES,
} from "./page-transition";

/** sessionStorage's part that the handover uses, in memory. */
function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

const url = (address: string) => new URL(address, "https://example.org");

describe("the focus handover across a page load", () => {
  it("hands the target to the page the transition loads, once", () => {
    const storage = memoryStorage();
    handOverFocus(storage, url("/blog?article=second-post"), "article");
    expect(takeFocusHandover(storage, url("/blog?article=second-post"))).toBe("article");
    expect(takeFocusHandover(storage, url("/blog?article=second-post"))).toBeNull();

    handOverFocus(storage, url("/blog?page=2"), "card:second-post");
    expect(takeFocusHandover(storage, url("https://example.org/blog?page=2"))).toBe("card:second-post");
  });

  it("a page the transition did not lead to ignores it, and uses it up", () => {
    const storage = memoryStorage();
    handOverFocus(storage, url("/blog/next-post"), "article");
    expect(takeFocusHandover(storage, url("/about"))).toBeNull();
    expect(storage.items.has(FOCUS_HANDOVER_KEY)).toBe(false);
    handOverFocus(storage, url("/blog?page=2"), "card:a-post");
    expect(takeFocusHandover(storage, url("/blog?page=3"))).toBeNull();
  });

  it("a transition without a focus target clears an older handover", () => {
    const storage = memoryStorage();
    handOverFocus(storage, url("/blog"), "card:a-post");
    handOverFocus(storage, url("/blog"), null);
    expect(takeFocusHandover(storage, url("/blog"))).toBeNull();
  });

  it.each([
    ["not JSON", "article"],
    ["JSON of another shape", "[1,2]"],
    ["null", "null"],
    ["an unknown target", JSON.stringify({ to: "/blog", focus: "footer" })],
    ["a card with a malformed slug", JSON.stringify({ to: "/blog", focus: "card:<img src=x>" })],
    ["no address", JSON.stringify({ focus: "article" })],
  ])("what storage gives back is checked: %s is ignored", (_, stored) => {
    const storage = memoryStorage();
    storage.setItem(FOCUS_HANDOVER_KEY, stored);
    expect(takeFocusHandover(storage, url("/blog"))).toBeNull();
    expect(storage.items.has(FOCUS_HANDOVER_KEY)).toBe(false);
  });
});

describe("focus targets", () => {
  it("parses what links and forms carry, and nothing else", () => {
    expect(parseFocusAfter("article")).toBe("article");
    expect(parseFocusAfter("card:building-an-iot-garden-monitor")).toBe("card:building-an-iot-garden-monitor");
    for (const value of [null, "", "card:", "card:Upper", "Article", 42, "card:a b"]) {
      expect(parseFocusAfter(value)).toBeNull();
    }
  });

  it("names the ids the article view and the post cards render", () => {
    expect(focusTargetId("article")).toBe("article-title");
    expect(focusTargetId("card:a-post")).toBe("post-a-post");
  });

  it("a link's attributes carry a target that parses", () => {
    const attributes = followLink({ loading: "Loading articles...", focus: "card:a-post" });
    expect(parseFocusAfter(attributes[TRANSITION_ATTRIBUTES.focus])).toBe("card:a-post");
  });
});
