import { countOf } from "~/lib/admin-lists";

/**
 * The texts of the Analytics screen (issue 32, ADR 056). The screen takes
 * every word it shows from here.
 */
export const analyticsText = {
  title: "Analytics",
  intro:
    "How many people read the site, where they came from, and how many got in touch. Every day is a UTC day (midnight to midnight, Coordinated Universal Time). No cookie, no banner and no other company is involved: visitors are counted without storing anything that identifies them.",
  rangeLabel: "Period",
  ranges: [
    { days: 7, label: "Last 7 days" },
    { days: 30, label: "Last 30 days" },
    { days: 90, label: "Last 90 days" },
  ],
  customHeading: "Other period",
  fromLabel: "From (UTC)",
  toLabel: "To (UTC)",
  show: "Show",
  badRange: (message: string) => `That period could not be shown: ${message}. Showing the last 30 days.`,
  period: (from: string, to: string, days: number) => `${from} to ${to} (UTC), ${countOf(days, "day")}`,
  totalsLabel: "Totals",
  views: "Views",
  visitors: "Visitors",
  messages: "Contact messages",
  conversionRate: "Contact rate",
  conversionHint: "contact messages per visitor",
  noRate: "none yet",
  chartTitle: (from: string, to: string) => `Views and visitors per day, ${from} to ${to} (UTC)`,
  chartSummary: (views: number, visitors: number, busiest: string | undefined) =>
    `${countOf(views, "view")} and ${countOf(visitors, "visitor")} in all${busiest ? `; the busiest day was ${busiest}` : ""}.`,
  daysCaption: "Views, visitors and contact messages per day (UTC)",
  date: "Day (UTC)",
  pagesCaption: "Top pages",
  page: "Page",
  sourcesCaption: "Top sources",
  source: "Source",
  sourcesHint:
    "Where visitors came from: the site that linked to this one, the utm_source of a campaign's link, or direct (typed, a bookmark, an app).",
  campaignsCaption: "Campaigns",
  campaign: "Campaign (utm_campaign)",
  devicesCaption: "Devices",
  device: "Device",
  devices: { desktop: "Desktop", phone: "Phone", tablet: "Tablet" } as Record<string, string>,
  contactPagesCaption: "Contact messages by page they were sent from",
  contactSourcesCaption: "Contact messages by the source of the sender's visit",
  nothing: "Nothing counted in this period.",
  leadsCaption: "Leads by source",
  leadsHint:
    "Contact messages received in this period, spam aside, by the source of the sender's visit and where each stands now (its status in Messages). Most won first.",
  leadsTotal: "Total",
  noLeads: "No contact messages were received in this period.",
  unknownSource: "(not recorded)",
  other: "(other)",
  otherHint: "Past 200 different entries a day, the least counted are added up as (other).",
  exportCsv: "Export CSV",
  exportLabel: (from: string, to: string) => `Export CSV of ${from} to ${to}`,
  loading: "Loading analytics...",
};
