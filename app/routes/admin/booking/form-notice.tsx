/**
 * The top of the Booking form: the confirmation of a save, or the summary of
 * a refused one, each issue a link to its field. Focus comes here after a
 * save, so the confirmation is read.
 */
import type { Ref } from "react";
import { bookingAdminText as text } from "~/content/booking-admin";
import type { Problem } from "./form-model";

export function FormNotice({
  saved,
  problems,
  ref,
}: {
  saved: boolean;
  problems: Problem[];
  ref: Ref<HTMLDivElement>;
}) {
  return (
    <div ref={ref} tabIndex={-1} className="outline-none">
      <div role="status">
        {saved && (
          <p className="rounded-md border border-green-300 bg-green-50 px-3 py-2 text-green-900">{text.saved}</p>
        )}
      </div>
      <div role="alert">
        {problems.length > 0 && (
          <div className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">
            <p className="font-semibold">{text.refused}</p>
            <ul className="mt-1 list-disc pl-5">
              {problems.map((problem, i) => (
                <li key={i}>
                  <a
                    href={`#${problem.target}`}
                    onClick={(event) => {
                      // The field itself takes focus, not only the scroll.
                      event.preventDefault();
                      document.getElementById(problem.target)?.focus();
                    }}
                    className="underline underline-offset-2"
                  >
                    {problem.text}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </div>
  );
}
