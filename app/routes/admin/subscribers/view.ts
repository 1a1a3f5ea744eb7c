import type { StatusFilter } from "~/content/subscribers-admin";

/** A view of the Subscribers screen: status, search and page, kept in its address. */
export interface SubscribersView {
  status: StatusFilter;
  q: string;
  page?: number;
}

/** The screen's address for a view; defaults are left out, so each view has one spelling. */
export function subscribersHref({ status, q, page = 1 }: SubscribersView): string {
  const params = new URLSearchParams();
  if (status !== "all") params.set("status", status);
  if (q) params.set("q", q);
  if (page > 1) params.set("page", String(page));
  const search = params.toString();
  return search ? `/admin/subscribers?${search}` : "/admin/subscribers";
}
