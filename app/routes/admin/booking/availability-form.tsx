/**
 * The owner's availability as one form (ADR 071), saved through the
 * screen's action: the switch, the time zone, the numbers, the weekly hours
 * and the days off. A refused save keeps every row as typed and shows each
 * issue beside its field and in a summary above; focus goes to the first
 * field to fix, or to the confirmation.
 */
import { useEffect, useRef, useState } from "react";
import { Form } from "react-router";
import { bookingAdminText as text } from "~/content/booking-admin";
import type { BookingAnswer } from "./actions.server";
import { CallFields } from "./call-fields";
import { DaysOff } from "./days-off";
import { FormNotice } from "./form-notice";
import { type FormState, placeIssues, type PostedValues, type Problem, stateOf } from "./form-model";
import { WeeklyHours } from "./weekly-hours";

const problemsOf = (answer: BookingAnswer | undefined, state: FormState): Problem[] =>
  answer && !answer.saved ? placeIssues(answer.issues, state) : [];

export function AvailabilityForm({
  initial,
  timeZones,
  answer,
  busy,
}: {
  /** What is saved, or what a refused save posted (without the page's script). */
  initial: PostedValues;
  timeZones: string[];
  answer: BookingAnswer | undefined;
  busy: boolean;
}) {
  const [state, setState] = useState(() => stateOf(initial));
  // Each answer's issues are placed on the rows as they were posted: state adjusted while rendering.
  const [placed, setPlaced] = useState(() => ({ answer, problems: problemsOf(answer, stateOf(initial)) }));
  if (placed.answer !== answer) setPlaced({ answer, problems: problemsOf(answer, state) });
  const errorFor = (id: string) =>
    placed.problems
      .filter((problem) => problem.target === id)
      .map((problem) => problem.text)
      .join(" ") || undefined;

  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!placed.answer) return;
    if (placed.answer.saved) notice.current?.focus();
    else document.getElementById(placed.problems[0]?.target ?? "")?.focus();
  }, [placed]);

  const change = (values: Partial<FormState>) => setState((current) => ({ ...current, ...values }));
  return (
    <Form method="post" noValidate className="mt-6 flex flex-col gap-6">
      <FormNotice ref={notice} saved={answer?.saved === true} problems={placed.problems} />
      <CallFields state={state} timeZones={timeZones} onChange={change} errorFor={errorFor} />
      <WeeklyHours rows={state.weekly} onChange={(weekly) => change({ weekly })} errorFor={errorFor} />
      <DaysOff rows={state.daysOff} onChange={(daysOff) => change({ daysOff })} errorFor={errorFor} />
      <div>
        <button
          type="submit"
          disabled={busy}
          className="h-11 rounded-md bg-brand-700 px-5 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
        >
          {busy ? text.saving : text.save}
        </button>
      </div>
    </Form>
  );
}
