/** The analytics domain's interface: what routes, server/ and backup may use (README.md here). */
export { analyticsWatch, recordConversion } from "./counter.server";
export { analyticsReport, type AnalyticsReport, isAnalyticsRow, parseRange, parseScreenRange } from "./report.server";
export { init } from "./init.server";
export { leadOriginOf, type LeadOrigin } from "./visit.server";
export { STORE_LIMITS } from "./store.server";
export { type Chart, chartOf, reportCsv } from "./chart.server";
