/** Copy of the category pages (ADR 041). */

/** The link from a card to its category's page. */
export const categoryLinkText = (category: string) => `More in ${category}`;

export const categoryPage = {
  heading: (name: string) => name,
  eyebrow: "Category",
  title: (name: string, page: number, companyName: string) =>
    `${name}${page > 1 ? ` (page ${page})` : ""} | Blog | ${companyName}`,
  description: (name: string, companyName: string) => `Articles from ${companyName} in the category ${name}.`,
  count: (total: number) => (total === 1 ? "1 article" : `${total} articles`),
  breadcrumb: "Breadcrumb",
  blog: "Blog",
  pages: (name: string) => `${name} pages`,
  feed: "RSS feed of this category",
  feedTitle: (name: string, companyName: string) => `${companyName} Blog: ${name}`,
  loading: "Loading articles...",
};
