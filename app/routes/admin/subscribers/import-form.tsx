import { useEffect, useRef } from "react";
import { Form } from "react-router";
import { subscribersAdminText as text } from "~/content/subscribers-admin";
import type { ImportAnswer } from "./actions.server";

/**
 * "Import from CSV": a file and the owner's answer to whether these people
 * asked for the newsletter (no default: confirmed subscribers need their
 * consent). The outcome takes focus: what was added, and each line skipped.
 */
export function ImportForm({
  answer,
  limits,
  busy,
}: {
  answer: ImportAnswer | undefined;
  limits: { lines: number; bytes: number };
  busy: boolean;
}) {
  const outcome = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (answer) outcome.current?.focus();
  }, [answer]);
  return (
    <section aria-labelledby="import-subscribers" className="mt-10 rounded-lg border border-neutral-200 bg-white p-4">
      <h2 id="import-subscribers" className="text-xl font-semibold">
        {text.importHeading}
      </h2>
      <p className="mt-1 max-w-prose text-sm text-neutral-700">{text.importIntro(limits)}</p>
      <div ref={outcome} tabIndex={-1} className="outline-none">
        <div role="status">{answer && "imported" in answer && <ImportOutcome result={answer.imported} />}</div>
        <div role="alert">
          {answer && "importError" in answer && (
            <p className="mt-3 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">
              {answer.importError}
            </p>
          )}
        </div>
      </div>
      <Form method="post" encType="multipart/form-data" className="mt-4 flex flex-col items-start gap-4">
        <div className="flex max-w-full min-w-0 flex-col gap-1">
          <label htmlFor="subscribers-file" className="text-sm font-semibold text-neutral-800">
            {text.fileLabel}
          </label>
          <input
            id="subscribers-file"
            type="file"
            name="file"
            accept=".csv,text/csv"
            required
            onChange={(event) => {
              // Said before the upload: the server refuses a body this large before reading it.
              const file = event.currentTarget.files?.[0];
              event.currentTarget.setCustomValidity(
                file && file.size > limits.bytes ? text.tooLarge(limits.bytes) : "",
              );
            }}
            className="max-w-full text-sm file:mr-3 file:h-11 file:rounded-md file:border file:border-neutral-400 file:bg-white file:px-4"
          />
        </div>
        <fieldset className="max-w-prose">
          <legend className="text-sm font-semibold text-neutral-800">{text.consentLegend}</legend>
          <p id="consent-hint" className="mt-1 text-sm text-neutral-700">
            {text.consentHint}
          </p>
          {(["yes", "no"] as const).map((value) => (
            <label key={value} className="mt-1 flex items-start gap-2 py-2 text-sm">
              <input
                type="radio"
                name="consent"
                value={value}
                required
                aria-describedby={value === "yes" ? "consent-hint" : undefined}
                className="mt-0.5 h-5 w-5 shrink-0 accent-brand-700"
              />
              <span>{value === "yes" ? text.consentYes : text.consentNo}</span>
            </label>
          ))}
        </fieldset>
        <button
          type="submit"
          disabled={busy}
          className="h-11 rounded-md bg-brand-700 px-4 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
        >
          {busy ? text.importing : text.importButton}
        </button>
      </Form>
    </section>
  );
}

function ImportOutcome({ result }: { result: Extract<ImportAnswer, { imported: unknown }>["imported"] }) {
  return (
    <div className="mt-3 flex flex-col gap-2 text-sm">
      <p className="rounded-md border border-green-300 bg-green-50 px-3 py-2 font-medium text-green-900">
        {text.imported(result)}
      </p>
      {result.problems.length > 0 && (
        <div className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-950">
          <p className="font-medium">{text.problemsHeading}</p>
          <ul className="mt-1 list-disc pl-5">
            {result.problems.map((problem) => (
              <li key={`${problem.line}-${problem.message}`} className="break-words">
                {text.line(problem.line, problem.message)}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
