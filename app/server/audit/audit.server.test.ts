import { describe, expect, it } from "vitest";
import { userAgentSummary } from "~/lib/audit";
import { bounded, timeOrderedId } from "./audit.server";
import { isRecordId } from "../db/ids.server";

describe("audit log entries", () => {
  it("get ids that are UUIDs and sort in the order they were made, even within one millisecond", () => {
    const ids = Array.from({ length: 5000 }, () => timeOrderedId(1_700_000_000_000).id);
    expect(ids.every(isRecordId)).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(timeOrderedId(1_700_000_000_000).ms).toBeGreaterThan(1_700_000_000_000);
  });

  it("bound their text: cut, without control characters or half a surrogate pair", () => {
    expect(bounded("a\u0000b\nc", 10)).toBe("a b c");
    expect(bounded(`${"x".repeat(9)}😀`, 10)).toHaveLength(10);
    expect(bounded(`${"x".repeat(9)}😀`, 10)!.isWellFormed()).toBe(true);
    expect(bounded("   ", 10)).toBeNull();
    expect(bounded(undefined, 10)).toBeNull();
  });

  it("summarise a user agent", () => {
    expect(
      userAgentSummary(
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36",
      ),
    ).toBe("Chrome on Linux");
    expect(
      userAgentSummary(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
      ),
    ).toBe("Safari on iOS");
    expect(userAgentSummary("node")).toBe("node");
    expect(userAgentSummary(null)).toBe("-");
  });
});
