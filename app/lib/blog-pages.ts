/** Articles per /blog page: four rows of three cards on a wide screen. */
export const BLOG_PAGE_SIZE = 12;

/** The crawlable URL of a list page; page 1 is plain /blog. */
export function blogPageHref(page: number): string {
  return page > 1 ? `/blog?page=${page}` : "/blog";
}

/**
 * The list page a `?page=` value asks for (absent means 1), or undefined for
 * anything else, which /blog answers with 404: digits only, 1 or more.
 */
export function parseBlogPage(value: string | null): number | undefined {
  const page = value ?? "1";
  return /^\d{1,6}$/.test(page) && Number(page) >= 1 ? Number(page) : undefined;
}

/** The list page on which the article at this 0-based index appears. */
export function pageOfIndex(index: number): number {
  return Math.floor(index / BLOG_PAGE_SIZE) + 1;
}

/**
 * Page numbers to link: the first, the last and two either side of the
 * current one; null marks a gap. Keeps the pager short with thousands of posts.
 */
export function pageWindow(page: number, pages: number): Array<number | null> {
  const shown = new Set([1, pages]);
  for (let n = page - 2; n <= page + 2; n++) if (n >= 1 && n <= pages) shown.add(n);
  const sorted = [...shown].sort((a, b) => a - b);
  const result: Array<number | null> = [];
  for (const n of sorted) {
    const last = result[result.length - 1];
    if (typeof last === "number" && n - last > 1) result.push(n - last === 2 ? n - 1 : null);
    result.push(n);
  }
  return result;
}
