import { type Ref, useEffect, useSyncExternalStore } from "react";
import { Link, useRevalidator } from "react-router";
import { importText as text } from "~/content/import";
import type { ImportReport } from "~/lib/import";
import { importHref } from "./view";

/** How often a running import's report is asked for again. */
const POLL_MS = 2_000;

/** A track and its filled part in the site's colours; an indeterminate one (total not known yet) is the track alone. */
const PROGRESS =
  "mt-2 h-3 w-full appearance-none overflow-hidden rounded-full bg-neutral-200 [&::-moz-progress-bar]:bg-brand-700 [&::-webkit-progress-bar]:bg-neutral-200 [&::-webkit-progress-value]:bg-brand-700";

const subscribeToNothing = () => () => {};

/** True once the page's script runs: the server's page (and a browser without script) has no poll. */
const useScripted = () =>
  useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );

/** While the import runs, the screen's data again every POLL_MS (after the last answer, not on a clock). */
function usePollWhileRunning(running: boolean) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!running || revalidator.state !== "idle") return;
    const timer = setTimeout(() => void revalidator.revalidate(), POLL_MS);
    return () => clearTimeout(timer);
  }, [running, revalidator]);
}

/**
 * One import's report (ADR 074): how far it got while it runs, with a
 * progress bar and a polite live line a screen reader follows to the end;
 * then what it did and what to check, or why it stopped.
 */
export function ImportReportView({
  report,
  headingRef,
}: {
  report: ImportReport;
  headingRef: Ref<HTMLHeadingElement>;
}) {
  const running = report.status === "running";
  const scripted = useScripted();
  usePollWhileRunning(running);
  return (
    <section aria-labelledby="import-report-heading" className="mt-8">
      <h2
        id="import-report-heading"
        ref={headingRef}
        tabIndex={-1}
        className="text-xl font-semibold break-words outline-none"
      >
        {text.reportHeading(report)}
      </h2>
      <p className="mt-1 text-sm text-neutral-700">
        <time dateTime={report.createdAt}>{text.started(report)}</time>
        {report.kind && ` · ${text.kinds[report.kind]}`}
      </p>
      <p aria-live="polite" aria-atomic="true" className="mt-3 min-h-6 font-semibold text-neutral-900 empty:hidden">
        {report.status === "done" && text.done(report)}
        {running && (report.total === null ? text.reading : text.progress(report.processed, report.total))}
      </p>
      {running && (
        <>
          <progress
            aria-label={text.progressLabel}
            // No total yet (or an empty file): indeterminate, as a max of 0 is not one.
            value={report.total ? report.processed : undefined}
            max={report.total || undefined}
            className={PROGRESS}
          />
          <p className="mt-2 max-w-prose text-sm text-neutral-700">
            {text.running}{" "}
            {!scripted && (
              <a href={importHref(report.id)} className="font-medium text-brand-800 underline underline-offset-2">
                {text.refresh}
              </a>
            )}
          </p>
        </>
      )}
      {report.status === "failed" && (
        <div role="alert" className="mt-3 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-red-900">
          <p className="font-semibold">{text.failed}</p>
          {report.error && <p className="break-words">{report.error}</p>}
        </div>
      )}
      {report.status === "done" && <ImportOutcome report={report} />}
    </section>
  );
}

/** A finished import: its numbers, the problems to check, and where to look next. */
function ImportOutcome({ report }: { report: ImportReport }) {
  const numbers: Array<[string, number]> = [
    [text.numbers.created, report.created],
    [text.numbers.skipped, report.skipped],
    [text.numbers.redirects, report.redirects],
    [text.numbers.fetched, report.images.fetched],
    [text.numbers.imagesFailed, report.images.failed],
  ];
  return (
    <>
      <h3 className="sr-only">{text.numbersName}</h3>
      <dl className="mt-3 grid grid-cols-2 gap-2 rounded-lg border border-neutral-200 bg-white p-3 sm:grid-cols-5">
        {numbers.map(([name, value]) => (
          <div key={name} className="flex flex-col">
            <dt className="text-sm text-neutral-700">{name}</dt>
            <dd className="text-lg font-semibold tabular-nums">{value.toLocaleString("en-US")}</dd>
          </div>
        ))}
      </dl>
      {report.problems.length > 0 && (
        <div className="mt-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-950">
          <h3 className="font-semibold">{text.problemsHeading}</h3>
          <ul className="mt-1 list-disc pl-5 text-sm">
            {report.problems.map((problem, i) => (
              <li key={`${i}-${problem}`} className="break-words">
                {problem}
              </li>
            ))}
            {report.moreProblems > 0 && <li>{text.moreProblems(report.moreProblems)}</li>}
          </ul>
        </div>
      )}
      <p className="mt-4 max-w-prose text-sm text-neutral-700">
        {report.problems.length > 0 ? text.checkListed : text.checkPosts} {text.redirectsMarked}{" "}
        <Link to="/admin" className="font-medium text-brand-800 underline underline-offset-2">
          {text.postsLink}
        </Link>
        {" · "}
        <Link to="/admin/redirects" className="font-medium text-brand-800 underline underline-offset-2">
          {text.redirectsLink}
        </Link>
      </p>
    </>
  );
}
