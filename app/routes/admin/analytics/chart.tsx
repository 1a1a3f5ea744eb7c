import { useId } from "react";
import { analyticsText as text } from "~/content/analytics";
import type { AnalyticsReport, Chart } from "~/server/analytics/index.server";

/**
 * The chart of views and visitors per day: an SVG whose geometry the loader
 * computed on the server (chartOf); this only lays it out. The numbers it
 * shows are in the table below it as well, for screen readers and for anyone
 * who wants the exact figures.
 */
export function AnalyticsChart({ chart, report }: { chart: Chart; report: AnalyticsReport }) {
  const titleId = useId();
  const descId = useId();
  const busiest = report.days.reduce<AnalyticsReport["days"][number] | undefined>(
    (best, day) => (day.views > (best?.views ?? 0) ? day : best),
    undefined,
  );
  const { plot } = chart;
  const dots = chart.points.length <= 31;
  return (
    <figure className="mt-6 rounded-lg border border-neutral-200 bg-white p-4">
      <svg
        role="img"
        aria-labelledby={`${titleId} ${descId}`}
        viewBox={`0 0 ${chart.width} ${chart.height}`}
        className="h-auto w-full"
      >
        <title id={titleId}>{text.chartTitle(report.range.from, report.range.to)}</title>
        <desc id={descId}>{text.chartSummary(report.totals.views, report.totals.visitors, busiest?.date)}</desc>
        {chart.yTicks.map((tick) => (
          <g key={tick.label}>
            <line x1={plot.left} x2={plot.right} y1={tick.y} y2={tick.y} className="stroke-neutral-200" />
            <text
              x={plot.left - 8}
              y={tick.y + 4}
              textAnchor="end"
              className="fill-neutral-700 text-[12px] max-sm:text-[22px]"
            >
              {tick.label}
            </text>
          </g>
        ))}
        {chart.xLabels.map((label, i) => (
          <text
            key={label.label}
            x={label.x}
            y={plot.bottom + 20}
            textAnchor={
              chart.xLabels.length > 1 && i === 0 ? "start" : i === chart.xLabels.length - 1 && i > 0 ? "end" : "middle"
            }
            className="fill-neutral-700 text-[12px] max-sm:text-[22px]"
          >
            {label.label}
          </text>
        ))}
        <path d={chart.views} fill="none" strokeWidth={2.5} className="stroke-brand-700" />
        <path d={chart.visitors} fill="none" strokeWidth={2} strokeDasharray="6 4" className="stroke-amber-600" />
        {dots &&
          chart.points.map((point) => (
            <g key={point.x}>
              <circle cx={point.x} cy={point.views} r={3} className="fill-brand-700" />
              <circle cx={point.x} cy={point.visitors} r={2.5} className="fill-amber-600" />
            </g>
          ))}
      </svg>
      <figcaption className="mt-2 flex flex-wrap gap-4 text-sm text-neutral-700">
        <span className="inline-flex items-center gap-2">
          <span aria-hidden="true" className="inline-block h-1 w-6 rounded bg-brand-700" />
          {text.views}
        </span>
        <span className="inline-flex items-center gap-2">
          <span aria-hidden="true" className="inline-block h-0 w-6 border-t-2 border-dashed border-amber-600" />
          {text.visitors}
        </span>
        <span>{text.period(report.range.from, report.range.to, report.days.length)}</span>
      </figcaption>
    </figure>
  );
}
