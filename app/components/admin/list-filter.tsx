import { useEffect, useEffectEvent, useId, useState } from "react";
import { useNavigate } from "react-router";

/** Typing in a list's search box waits this long for a pause before the list is asked for. */
const TYPING_PAUSE_MS = 300;

export interface ListView<Choice extends string> {
  q: string;
  choice: Choice;
}

export interface ListFilter<Choice extends string> {
  /** What the box holds: what was typed, or the address's search after Back or a link. */
  text: string;
  setText: (text: string) => void;
  choice: Choice;
  /** Asks for the list `view` at once (Enter, another choice, a clear button). */
  show: (view: ListView<Choice>) => void;
}

/**
 * An admin list screen's search box and its one choice (sort, status), kept
 * in the address (ADR 026): the list follows the box a moment after typing
 * stops, and at once on Enter or another choice. `applied` is the search
 * last asked for: when the address changes otherwise (Back, a link), the box
 * shows the address's search.
 */
export function useListFilter<Choice extends string>(
  q: string,
  choice: Choice,
  hrefFor: (view: ListView<Choice>) => string,
): ListFilter<Choice> {
  const navigate = useNavigate();
  const [text, setText] = useState(q);
  const [applied, setApplied] = useState(q);
  const [shownQ, setShownQ] = useState(q);
  if (q !== shownQ) {
    setShownQ(q);
    if (q !== applied) {
      setApplied(q);
      setText(q);
    }
  }
  const show = (view: ListView<Choice>) => {
    setApplied(view.q);
    void navigate(hrefFor(view), { replace: true, preventScrollReset: true });
  };
  const showTyped = useEffectEvent((typed: string) => show({ q: typed, choice }));
  useEffect(() => {
    const typed = text.trim();
    if (typed === applied) return;
    const timer = setTimeout(() => showTyped(typed), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text, applied, choice]);
  return { text, setText, choice, show };
}

const FIELD =
  "h-11 rounded-md border border-neutral-400 bg-white px-3 text-base text-neutral-900 focus:border-brand-600";

/**
 * The search form of an admin list: a search box and a select, each with its
 * label, as a GET form of the list's own address (`q` and `choiceName`), so
 * it also works before the page's script runs. `children` follow the select
 * (a submit button, an export link).
 */
export function ListFilterForm<Choice extends string>({
  filter,
  name,
  action,
  searchLabel,
  maxLength,
  choiceName,
  choiceLabel,
  choices,
  children,
}: {
  filter: ListFilter<Choice>;
  /** The search landmark's name ("Posts", "Messages"). */
  name: string;
  action: string;
  searchLabel: string;
  maxLength: number;
  choiceName: string;
  choiceLabel: string;
  choices: Record<Choice, string>;
  children?: React.ReactNode;
}) {
  const id = useId();
  const { text, setText, choice, show } = filter;
  return (
    <form
      role="search"
      aria-label={name}
      method="get"
      action={action}
      className="mt-6 flex flex-wrap items-end gap-3"
      onSubmit={(event) => {
        // Enter asks at once, without waiting for the pause.
        event.preventDefault();
        show({ q: text.trim(), choice });
      }}
    >
      <div className="flex min-w-0 flex-[1_1_14rem] flex-col gap-1 sm:max-w-sm">
        <label htmlFor={`${id}-q`} className="text-sm font-semibold text-neutral-800">
          {searchLabel}
        </label>
        <input
          id={`${id}-q`}
          type="search"
          name="q"
          value={text}
          maxLength={maxLength}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => setText(event.target.value)}
          className={`w-full ${FIELD}`}
        />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-choice`} className="text-sm font-semibold text-neutral-800">
          {choiceLabel}
        </label>
        <select
          id={`${id}-choice`}
          name={choiceName}
          value={choice}
          onChange={(event) => show({ q: text.trim(), choice: event.target.value as Choice })}
          className={FIELD}
        >
          {(Object.entries(choices) as [Choice, string][]).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {children}
    </form>
  );
}
