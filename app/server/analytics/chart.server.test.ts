import { describe, expect, it } from "vitest";
import { chartOf, niceCeiling, reportCsv, shortNumber } from "./chart.server";
import type { AnalyticsReport } from "./report.server";

/** The dashboard's chart geometry and the CSV export (ADR 056). */

const days = [
  { date: "2026-11-25", views: 0, visitors: 0 },
  { date: "2026-11-26", views: 37, visitors: 12 },
  { date: "2026-11-27", views: 10, visitors: 4 },
];

describe("the chart", () => {
  it("scales to a round top, spans the plot, labels the first, middle and last days", () => {
    expect([0, 3, 4, 5, 37, 100, 101, 2_500].map(niceCeiling)).toEqual([4, 4, 4, 5, 50, 100, 200, 5_000]);
    expect([0, 999, 1_500, 2_000_000].map(shortNumber)).toEqual(["0", "999", "1.5k", "2M"]);
    const chart = chartOf(days);
    expect(chart.yTicks.map((tick) => tick.label)).toEqual(["0", "25", "50"]);
    expect(chart.views).toBe(
      `M${chart.plot.left} ${chart.plot.bottom} L${(chart.plot.left + chart.plot.right) / 2} ${chart.points[1]!.views} L${chart.plot.right} ${chart.points[2]!.views}`,
    );
    expect(chart.points[1]!.views).toBeLessThan(chart.points[1]!.visitors);
    expect(chart.xLabels.map((label) => label.label)).toEqual(["11-25", "11-26", "11-27"]);
    // One day: its point in the middle.
    expect(chartOf(days.slice(0, 1)).points[0]!.x).toBe((chart.plot.left + chart.plot.right) / 2);
  });
});

describe("the CSV export", () => {
  it("writes one line per number and escapes what a spreadsheet would run", () => {
    const report: AnalyticsReport = {
      range: { from: "2026-11-25", to: "2026-11-27" },
      totals: { views: 47, visitors: 16, conversions: 1 },
      days,
      pages: [{ path: "/about", views: 47 }],
      referrers: [{ source: '=HYPERLINK("https://x.example")', visitors: 2, views: 3 }],
      campaigns: [],
      devices: [{ device: "phone", visitors: 16, views: 47 }],
      conversions: {
        days: days.map((day, i) => ({ date: day.date, messages: i === 2 ? 1 : 0 })),
        pages: [{ path: "/about", messages: 1 }],
        sources: [{ source: "direct", messages: 1 }],
      },
    };
    expect(reportCsv(report).split("\r\n")).toEqual([
      "section,name,views,visitors,messages",
      "day,2026-11-25,0,0,0",
      "day,2026-11-26,37,12,0",
      "day,2026-11-27,10,4,1",
      "page,/about,47,,",
      `source,"'=HYPERLINK(""https://x.example"")",3,2,`,
      "device,phone,47,16,",
      "contact_page,/about,,,1",
      "contact_source,direct,,,1",
      "",
    ]);
  });
});
