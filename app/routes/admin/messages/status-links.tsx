/**
 * The inbox's lead-status filter (ADR 070): a row of links, each with how
 * many messages have that status, so the owner sees the pipeline at a
 * glance; links work before the page's script runs. "All" is every status
 * but spam, which is kept apart.
 */
import { Link } from "react-router";
import { LEAD_STATUS_LABELS, leadsText } from "~/content/leads";
import { messagesHref, type InboxView } from "~/lib/admin-lists";
import { LEAD_FILTERS, type LeadFilter, type LeadStatus } from "~/lib/leads";

export function StatusLinks({ view, counts }: { view: InboxView; counts: Record<LeadStatus, number> }) {
  const current = view.status ?? "all";
  const countOf = (filter: LeadFilter) =>
    filter === "all"
      ? Object.entries(counts).reduce((sum, [status, n]) => (status === "spam" ? sum : sum + n), 0)
      : counts[filter];
  return (
    <nav aria-label={leadsText.statusNav} className="mt-4">
      <ul className="flex flex-wrap gap-2">
        {LEAD_FILTERS.map((filter) => {
          const selected = filter === current;
          const label = filter === "all" ? leadsText.allStatuses : LEAD_STATUS_LABELS[filter];
          return (
            <li key={filter}>
              <Link
                to={messagesHref({ ...view, status: filter, page: 1 })}
                aria-current={selected ? "page" : undefined}
                preventScrollReset
                className={`inline-flex min-h-10 items-center rounded-full border px-3 text-sm font-medium ${
                  selected
                    ? "border-brand-700 bg-brand-700 text-white"
                    : "border-neutral-400 bg-white text-neutral-900 hover:bg-neutral-100"
                }`}
              >
                {leadsText.statusLink(label, countOf(filter))}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
