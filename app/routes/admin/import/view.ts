/** The Import screen's address, with one import's report when `id` is given. */
export function importHref(id?: string): string {
  return id ? `/admin/import?${new URLSearchParams({ id }).toString()}` : "/admin/import";
}

/** How many earlier imports the screen lists. */
export const IMPORTS_SHOWN = 10;
