import { Form, Link, useNavigation } from "react-router";
import { AdminScreen } from "~/components/admin/admin-screen";
import { analyticsText as text } from "~/content/analytics";
import { LEAD_STATUS_LABELS } from "~/content/leads";
import { pageMeta } from "~/lib/seo";
import { analyticsReport, chartOf, parseScreenRange } from "~/server/analytics/index.server";
import { leadsBySource } from "~/server/messages/index.server";
import { connectionContext, dbContext } from "~/server/platform/context.server";
import type { Route } from "./+types/route";
import { AnalyticsChart } from "./chart";
import { DateField } from "./date-field";
import { NumbersTable } from "./numbers-table";

/**
 * /admin/analytics?days=7|30|90 or ?from=&to=: the owner's dashboard (ADR
 * 056): totals, the chart (its geometry computed here, on the server), the
 * numbers per day as a table, the top pages, sources, campaigns, devices and
 * the contact messages with the page and source that led to them, and the
 * leads per source and status (ADR 070, the inbox's numbers, read here).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { range, preset, error } = parseScreenRange(new URL(request.url).searchParams);
  const db = context.get(dbContext);
  const [report, leads] = await Promise.all([
    analyticsReport(context.get(connectionContext), range),
    leadsBySource(db, range.from, range.to),
  ]);
  return { report, leads, chart: chartOf(report.days), preset, error };
}

export const meta = () => pageMeta({ title: "Analytics | Blog Admin", noindex: true });

const rate = (messages: number, visitors: number) =>
  visitors === 0 ? text.noRate : `${((100 * messages) / visitors).toFixed(1)}%`;

function RangePicker({ preset, from, to }: { preset: number | null; from: string; to: string }) {
  return (
    <div className="mt-6 flex flex-wrap items-end gap-x-6 gap-y-4">
      <nav aria-label={text.rangeLabel}>
        <ul className="flex flex-wrap gap-2">
          {text.ranges.map((choice) => (
            <li key={choice.days}>
              <Link
                to={`/admin/analytics?days=${choice.days}`}
                aria-current={preset === choice.days ? "page" : undefined}
                className={`inline-flex min-h-10 items-center rounded-md border px-3 font-medium ${
                  preset === choice.days
                    ? "border-brand-700 bg-brand-700 text-white"
                    : "border-neutral-400 bg-white hover:bg-neutral-100"
                }`}
              >
                {choice.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <Form method="get" className="flex flex-wrap items-end gap-2" aria-label={text.customHeading}>
        <DateField label={text.fromLabel} name="from" value={from} />
        <DateField label={text.toLabel} name="to" value={to} />
        <button
          type="submit"
          className="min-h-10 rounded-md border border-neutral-400 bg-white px-3 font-medium hover:bg-neutral-100"
        >
          {text.show}
        </button>
      </Form>
    </div>
  );
}

function Totals({ views, visitors, messages }: { views: number; visitors: number; messages: number }) {
  const tiles = [
    { label: text.views, value: views.toLocaleString("en-US") },
    { label: text.visitors, value: visitors.toLocaleString("en-US") },
    { label: text.messages, value: messages.toLocaleString("en-US") },
    { label: text.conversionRate, value: rate(messages, visitors), hint: text.conversionHint },
  ];
  return (
    <dl aria-label={text.totalsLabel} className="mt-6 grid grid-cols-2 gap-3 md:grid-cols-4">
      {tiles.map((tile) => (
        <div key={tile.label} className="rounded-lg border border-neutral-200 bg-white p-4">
          <dt className="text-sm text-neutral-700">{tile.label}</dt>
          <dd className="mt-1 text-2xl font-bold">{tile.value}</dd>
          {tile.hint && <dd className="text-xs text-neutral-700">{tile.hint}</dd>}
        </div>
      ))}
    </dl>
  );
}

export default function AdminAnalytics({ loaderData }: Route.ComponentProps) {
  const { report, leads, chart, preset, error } = loaderData;
  const { from, to } = report.range;
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/admin/analytics";
  const label = (key: string) => (key === "(other)" ? text.other : key);
  const leadSourceLabel = (key: string) => (key === "(unknown)" ? text.unknownSource : label(key));
  return (
    <AdminScreen width="5xl" title={text.title} intro={text.intro}>
      <RangePicker preset={preset} from={from} to={to} />
      {error && (
        <p role="alert" className="mt-4 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-red-900">
          {text.badRange(error)}
        </p>
      )}
      <div className="mt-4 flex flex-wrap items-center justify-between gap-2">
        <p aria-live="polite" aria-atomic="true" className="font-medium">
          {loading ? text.loading : text.period(from, to, report.days.length)}
        </p>
        <a
          href={`/api/admin/analytics.csv?from=${from}&to=${to}`}
          download
          aria-label={text.exportLabel(from, to)}
          className="inline-flex min-h-10 items-center rounded-md border border-neutral-400 bg-white px-3 font-medium hover:bg-neutral-100"
        >
          {text.exportCsv}
        </a>
      </div>
      <div aria-busy={loading} className={loading ? "opacity-60" : undefined}>
        <Totals views={report.totals.views} visitors={report.totals.visitors} messages={report.totals.conversions} />
        <AnalyticsChart chart={chart} report={report} />
        <NumbersTable
          caption={text.daysCaption}
          collapsed
          columns={[text.date, text.views, text.visitors, text.messages]}
          rows={report.days.map((day, i) => [
            day.date,
            day.views,
            day.visitors,
            report.conversions.days[i]?.messages ?? 0,
          ])}
        />
        <div className="mt-2 grid gap-x-6 md:grid-cols-2">
          <NumbersTable
            caption={text.pagesCaption}
            columns={[text.page, text.views]}
            rows={report.pages.map((page) => [label(page.path), page.views])}
          />
          <NumbersTable
            caption={text.sourcesCaption}
            hint={text.sourcesHint}
            columns={[text.source, text.visitors, text.views]}
            rows={report.referrers.map((source) => [label(source.source), source.visitors, source.views])}
          />
          <NumbersTable
            caption={text.campaignsCaption}
            columns={[text.campaign, text.visitors, text.views]}
            rows={report.campaigns.map((campaign) => [label(campaign.campaign), campaign.visitors, campaign.views])}
          />
          <NumbersTable
            caption={text.devicesCaption}
            columns={[text.device, text.visitors, text.views]}
            rows={report.devices.map((device) => [
              text.devices[device.device] ?? label(device.device),
              device.visitors,
              device.views,
            ])}
          />
          <NumbersTable
            caption={text.contactPagesCaption}
            columns={[text.page, text.messages]}
            rows={report.conversions.pages.map((page) => [label(page.path), page.messages])}
          />
          <NumbersTable
            caption={text.contactSourcesCaption}
            columns={[text.source, text.messages]}
            rows={report.conversions.sources.map((source) => [label(source.source), source.messages])}
          />
        </div>
        <NumbersTable
          caption={text.leadsCaption}
          hint={text.leadsHint}
          empty={text.noLeads}
          dense
          columns={[
            text.source,
            LEAD_STATUS_LABELS.new,
            LEAD_STATUS_LABELS.contacted,
            LEAD_STATUS_LABELS.qualified,
            LEAD_STATUS_LABELS.won,
            LEAD_STATUS_LABELS.lost,
            text.leadsTotal,
          ]}
          rows={leads.map((lead) => [
            leadSourceLabel(lead.source),
            lead.new,
            lead.contacted,
            lead.qualified,
            lead.won,
            lead.lost,
            lead.total,
          ])}
        />
        <p className="mt-6 text-sm text-neutral-700">{text.otherHint}</p>
      </div>
    </AdminScreen>
  );
}
