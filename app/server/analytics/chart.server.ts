import { stringify } from "csv-stringify/sync";
import type { AnalyticsReport } from "./report.server";

/**
 * The dashboard's chart, drawn on the server (ADR 056): the geometry of an
 * SVG line chart of views and visitors per day, computed here so the page
 * carries paths, not a chart library. And the CSV export of a report.
 */

export interface Chart {
  width: number;
  height: number;
  plot: { left: number; top: number; right: number; bottom: number };
  /** SVG path data of each line. */
  views: string;
  visitors: string;
  /** Where each day's point sits, for the dots of a short range. */
  points: Array<{ x: number; views: number; visitors: number }>;
  yTicks: Array<{ y: number; label: string }>;
  xLabels: Array<{ x: number; label: string }>;
}

const WIDTH = 720;
const HEIGHT = 260;
const PLOT = { left: 56, top: 14, right: WIDTH - 16, bottom: HEIGHT - 34 };

/** A round number at or above `max` (1, 2 or 5 times a power of ten), for the top of the scale. */
export function niceCeiling(max: number): number {
  if (max <= 4) return 4;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

const round = (value: number) => Math.round(value * 10) / 10;

/** A scale label that stays short on a phone: 1,500 is 1.5k, 2,000,000 is 2M. */
export function shortNumber(value: number): string {
  if (value >= 1_000_000) return `${round(value / 1_000_000)}M`;
  if (value >= 1_000) return `${round(value / 1_000)}k`;
  return String(value);
}

export function chartOf(days: AnalyticsReport["days"]): Chart {
  const top = niceCeiling(Math.max(0, ...days.map((day) => Math.max(day.views, day.visitors))));
  const span = PLOT.right - PLOT.left;
  const x = (i: number) => round(days.length === 1 ? PLOT.left + span / 2 : PLOT.left + (span * i) / (days.length - 1));
  const y = (value: number) => round(PLOT.bottom - ((PLOT.bottom - PLOT.top) * value) / top);
  const line = (pick: (day: AnalyticsReport["days"][number]) => number) =>
    days.map((day, i) => `${i === 0 ? "M" : "L"}${x(i)} ${y(pick(day))}`).join(" ");
  const labelled = days.length <= 7 ? days.map((_, i) => i) : [0, Math.floor((days.length - 1) / 2), days.length - 1];
  return {
    width: WIDTH,
    height: HEIGHT,
    plot: PLOT,
    views: line((day) => day.views),
    visitors: line((day) => day.visitors),
    points: days.map((day, i) => ({ x: x(i), views: y(day.views), visitors: y(day.visitors) })),
    yTicks: [0, top / 2, top].map((value) => ({ y: y(value), label: shortNumber(value) })),
    xLabels: labelled.map((i) => ({ x: x(i), label: days[i]!.date.slice(5) })),
  };
}

/**
 * A report as CSV: one line per number, `section,name,views,visitors,messages`
 * (section: day, page, source, campaign, device, contact_page,
 * contact_source). Cells a spreadsheet would read as a formula are escaped
 * (a source or campaign is whatever a link said).
 */
export function reportCsv(report: AnalyticsReport): string {
  const rows: Array<[string, string, number | string, number | string, number | string]> = [];
  report.days.forEach((day, i) =>
    rows.push(["day", day.date, day.views, day.visitors, report.conversions.days[i]?.messages ?? 0]),
  );
  for (const page of report.pages) rows.push(["page", page.path, page.views, "", ""]);
  for (const source of report.referrers) rows.push(["source", source.source, source.views, source.visitors, ""]);
  for (const campaign of report.campaigns)
    rows.push(["campaign", campaign.campaign, campaign.views, campaign.visitors, ""]);
  for (const device of report.devices) rows.push(["device", device.device, device.views, device.visitors, ""]);
  for (const page of report.conversions.pages) rows.push(["contact_page", page.path, "", "", page.messages]);
  for (const source of report.conversions.sources)
    rows.push(["contact_source", source.source, "", "", source.messages]);
  return stringify(rows, {
    header: true,
    columns: ["section", "name", "views", "visitors", "messages"],
    escape_formulas: true,
    record_delimiter: "\r\n",
  });
}
