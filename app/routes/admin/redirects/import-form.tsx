import { Form } from "react-router";
import { redirectsText as text } from "~/content/redirects";

type Result = { done: string } | { error: string } | { problems: Array<{ line: number; message: string }> } | undefined;

/** "Import from CSV": a file and a button; a refused file's lines are listed, each with its number. */
export function ImportForm({ result, busy }: { result: Result; busy: boolean }) {
  return (
    <section aria-labelledby="import-redirects" className="mt-8 rounded-lg border border-neutral-200 bg-white p-4">
      <h2 id="import-redirects" className="text-xl font-semibold">
        {text.importHeading}
      </h2>
      <p className="mt-1 max-w-prose text-sm text-neutral-700">{text.importIntro}</p>
      {result && "problems" in result && (
        <div role="alert" className="mt-3 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
          <p className="font-medium">{text.importRefused}</p>
          <ul className="mt-1 list-disc pl-5">
            {result.problems.map((problem) => (
              <li key={`${problem.line}-${problem.message}`} className="break-words">
                {text.line(problem.line, problem.message)}
              </li>
            ))}
          </ul>
        </div>
      )}
      <Form method="post" encType="multipart/form-data" className="mt-3 flex flex-wrap items-end gap-3">
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor="redirects-file" className="text-sm font-semibold text-neutral-800">
            {text.fileLabel}
          </label>
          <input
            id="redirects-file"
            type="file"
            name="file"
            accept=".csv,text/csv"
            required
            className="max-w-full text-sm file:mr-3 file:h-11 file:rounded-md file:border file:border-neutral-400 file:bg-white file:px-4"
          />
        </div>
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
