/**
 * The bar at the top of every editor (ADR 065): the editor's heading or where
 * its draft stands, then its actions (Preview, Save or Publish, ...), and a
 * close button when the editor closes in place. Sticky, so the main action
 * stays at hand however far down the form is.
 */
import { useId } from "react";

export interface ToolbarAction {
  /** Its lasting name: a label that changes (Save, Saving...) keeps its button, and the focus on it. */
  key: string;
  label: string;
  onClick: () => void;
  /** The editor's main action (Save, Publish): one per bar. */
  primary?: boolean;
  disabled?: boolean;
  /** A toggle's state (aria-pressed); undefined for a plain button. */
  pressed?: boolean;
  /** More about it for screen readers (a keyboard shortcut). */
  description?: string;
}

/** What the bar says first: the editor's heading (a post, inside its card), or its draft's status (a page). */
type Lead = { heading: string; id: string } | { status: string; alert: boolean; testId: string };

const buttonClass = {
  plain:
    "min-h-10 rounded-md border border-neutral-400 bg-white px-4 py-2 font-medium hover:bg-neutral-100 disabled:cursor-not-allowed disabled:opacity-60",
  primary:
    "min-h-10 rounded-md bg-brand-700 px-5 py-2 font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-60",
};

/** Flush with the top of the editor's card, or a card of its own under the screen's heading. */
const barClass = {
  card: "sticky top-0 -mx-4 -mt-4 border-b border-neutral-200 bg-white px-4 py-3 sm:-mx-6 sm:-mt-6 sm:rounded-t-lg sm:px-6",
  page: "mt-4 sm:sticky sm:top-0 rounded-lg border border-neutral-200 bg-white/95 p-4 shadow-sm backdrop-blur",
};

export function EditorToolbar({
  lead,
  actions,
  close,
}: {
  lead: Lead;
  actions: ToolbarAction[];
  close?: { label: string; title: string; onClose: () => void };
}) {
  const ids = useId();
  return (
    <div className={`z-10 flex flex-wrap items-center gap-3 ${barClass["heading" in lead ? "card" : "page"]}`}>
      {"heading" in lead ? (
        <h2 id={lead.id} className="w-full text-2xl font-bold sm:mr-auto sm:w-auto">
          {lead.heading}
        </h2>
      ) : (
        <p
          role="status"
          aria-live="polite"
          className={`w-full text-sm font-medium ${lead.alert ? "text-red-800" : "text-neutral-800"}`}
          data-testid={lead.testId}
        >
          {lead.status}
        </p>
      )}
      {actions.map((action, index) => (
        <button
          key={action.key}
          type="button"
          onClick={action.onClick}
          disabled={action.disabled}
          aria-pressed={action.pressed}
          aria-describedby={action.description ? `${ids}-${index}` : undefined}
          className={action.primary ? buttonClass.primary : buttonClass.plain}
        >
          {action.label}
        </button>
      ))}
      {actions.map(
        (action, index) =>
          action.description && (
            <span key={action.key} id={`${ids}-${index}`} className="sr-only">
              {action.description}
            </span>
          ),
      )}
      {close && (
        <button
          type="button"
          aria-label={close.label}
          title={close.title}
          onClick={close.onClose}
          className="ml-auto inline-flex h-10 w-10 items-center justify-center rounded-md border border-neutral-400 bg-white hover:bg-neutral-100 sm:ml-0"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor">
            <path d="M5.3 4.2a.75.75 0 0 0-1.1 1.1L8.9 10l-4.7 4.7a.75.75 0 1 0 1.1 1.1l4.7-4.7 4.7 4.7a.75.75 0 1 0 1.1-1.1L11.1 10l4.7-4.7a.75.75 0 0 0-1.1-1.1L10 8.9 5.3 4.2Z" />
          </svg>
        </button>
      )}
    </div>
  );
}
