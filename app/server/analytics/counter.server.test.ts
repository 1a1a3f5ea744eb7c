import { describe, expect, it } from "vitest";
import { AnalyticsCounter, COUNTER_LIMITS } from "./counter.server";
import { agentFactsOf } from "./views.server";

/**
 * The counter in memory, between two writes: bounded however many visitors
 * come (ADR 056), one visitor counted once per dimension and key.
 */

const NOW = new Date("2026-11-27T12:00:00Z");
const SITE = "www.example.com";
const UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const headers = { accept: "text/html", "user-agent": UA, host: SITE };

describe("the analytics counter", () => {
  it("keeps one visitor's repeated views as one identity and one mark per dimension and key", () => {
    const counter = new AnalyticsCounter();
    counter.setSalt("2026-11-27", "salt");
    for (let i = 0; i < 5; i++) counter.recordView(`/blog?utm_source=news`, headers, "203.0.113.9", SITE, NOW);
    counter.recordView("/about", { ...headers, "sec-fetch-site": "same-origin" }, "203.0.113.9", SITE, NOW);
    const day = counter.take().get("2026-11-27")!;
    expect(day.views).toBe(6);
    expect(day.identityCount).toBe(1);
    expect([...day.marks.values()].map((marks) => Object.fromEntries([...marks].map(([d, k]) => [d, [...k]])))).toEqual(
      [{ all: [""], device: ["desktop"], source: ["news"] }],
    );
    expect(day.hits.get("page")).toEqual(
      new Map([
        ["/blog", 5],
        ["/about", 1],
      ]),
    );
  });

  it("stays bounded under a flood of new visitors: every view counted, visitors past the bound dropped", () => {
    const counter = new AnalyticsCounter();
    counter.setSalt("2026-11-27", "salt");
    const flood = COUNTER_LIMITS.pendingMarks + 5_000;
    for (let n = 0; n < flood; n++) {
      counter.recordView("/", headers, `10.${n >> 16}.${(n >> 8) & 255}.${n & 255}`, SITE, NOW);
    }
    const dropped = counter.dropped;
    const day = counter.take().get("2026-11-27")!;
    expect(day.views).toBe(flood);
    expect(day.identityCount).toBe(COUNTER_LIMITS.pendingMarks);
    expect(day.markCount).toBe(COUNTER_LIMITS.pendingMarks);
    expect(day.marks.size).toBeLessThanOrEqual(COUNTER_LIMITS.pendingMarks);
    expect(dropped).toBeGreaterThan(0);
  });

  it("tells crawlers and devices apart by User-Agent, and keeps a bounded number of answers", () => {
    expect(agentFactsOf("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)").crawler).toBe(true);
    expect(agentFactsOf("Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/131.0 Safari/537.36")).toEqual({
      crawler: false,
      device: "desktop",
    });
    expect(agentFactsOf("Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Mobile/15E148").device).toBe("phone");
    expect(agentFactsOf("Mozilla/5.0 (iPad; CPU OS 18_0 like Mac OS X)").device).toBe("tablet");
    expect(agentFactsOf("Mozilla/5.0 (Linux; Android 14; SM-X710)").device).toBe("tablet");
    // A flood of made-up User-Agents: each still answered as a fresh test would.
    for (let n = 0; n < 2_000; n++) expect(agentFactsOf(`bot-${n} crawler`).crawler).toBe(true);
  });
});
