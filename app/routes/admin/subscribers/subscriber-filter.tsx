import { type ListFilter, ListFilterForm } from "~/components/admin/list-filter";
import { type StatusFilter, subscribersAdminText as text } from "~/content/subscribers-admin";

/** The longest search, as the list's query allows (app/server/newsletter/admin.server.ts). */
const MAX_SEARCH = 200;

/**
 * The list's search by address and its status filter: a GET form of the
 * screen's address, so it works before the page's script runs; with it, the
 * list follows the box as the owner types. The export is every subscriber.
 */
export function SubscriberFilter({ filter, exportable }: { filter: ListFilter<StatusFilter>; exportable: boolean }) {
  return (
    <ListFilterForm
      filter={filter}
      name={text.listName}
      action="/admin/subscribers"
      searchLabel={text.searchLabel}
      maxLength={MAX_SEARCH}
      choiceName="status"
      choiceLabel={text.statusLabel}
      choices={text.statusFilters}
    >
      <button
        type="submit"
        className="h-11 rounded-md border border-neutral-400 bg-white px-4 text-sm font-medium hover:bg-neutral-100"
      >
        {text.search}
      </button>
      {exportable && (
        <a
          href="/api/admin/subscribers.csv"
          download
          className="inline-flex h-11 items-center rounded-md bg-brand-700 px-4 text-sm font-medium text-white hover:bg-brand-800"
        >
          {text.exportCsv}
        </a>
      )}
    </ListFilterForm>
  );
}
