/** The analytics domain's interface: what routes, server/ and backup may use (README.md here). */
export { analyticsCounter, analyticsWatch, COUNTER_LIMITS, recordConversion } from "./counter.server";
export {
  analyticsReport,
  type AnalyticsReport,
  isAnalyticsRow,
  MAX_RANGE_DAYS,
  parseRange,
  parseScreenRange,
  PRESET_DAYS,
  type Range,
  TOP_ROWS,
} from "./report.server";
export { FLUSH_MS, pruneAnalytics, startAnalytics, STORE_LIMITS, writeCounts } from "./store.server";
export { DIRECT, OTHER, UNKNOWN } from "./views.server";
export { type Chart, chartOf, reportCsv } from "./chart.server";
