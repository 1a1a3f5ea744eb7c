import type { ReactNode } from "react";
import { formatDate } from "~/lib/dates";
import { ARTICLE_TITLE_ID, followLink } from "~/lib/page-transition";
import type { Article, Neighbour } from "~/server/posts/index.server";
import { CategoryLink } from "./post-card";
import { PostImage } from "./post-image";

/**
 * How Previous/Next move: on /blog the article stays "in place"
 * (/blog?article={slug}); on /blog/{slug} they lead to the neighbour's page.
 * Both are real buttons in GET forms, so they work before (or without) the
 * page's JavaScript and are disabled at the ends of the list. On arrival the
 * new article's title takes focus (components/site/page-status.tsx).
 */
export type ArticleNavMode = "in-place" | "page";

/**
 * The article view (docs/product/interface.md#in-place-article): 'Back to articles', header image, category, date, read
 * time, title, author line, the rendered body, and Previous/Next bounded by
 * the list ends. Used in place on /blog and as the /blog/{slug} page.
 */
export function ArticleView({
  article,
  previous,
  next,
  backTo,
  mode,
  withNav = true,
  after,
}: {
  article: Article;
  previous: Neighbour | null;
  next: Neighbour | null;
  /** The list page this article sits on. */
  backTo: string;
  mode: ArticleNavMode;
  /** False on a share link's page (ADR 044): a draft has no place in the list yet. */
  withNav?: boolean;
  /** What follows the article's body, before Previous/Next (its page's link to /book; the newsletter's sign-up, ADR 072). */
  after?: ReactNode;
}) {
  return (
    <div>
      <p>
        <a
          href={backTo}
          {...followLink({ loading: "Loading articles...", focus: `card:${article.slug}` })}
          className="inline-flex items-center gap-1 font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900"
        >
          <span aria-hidden="true">←</span> Back to articles
        </a>
      </p>
      <article className="mt-6" aria-labelledby={ARTICLE_TITLE_ID}>
        {article.headerImage && (
          <PostImage
            src={article.headerImage}
            alt={article.headerImageAlt ?? ""}
            sizes="(min-width: 768px) 768px, 100vw"
            className="mb-8 aspect-[16/9] w-full rounded-lg object-cover"
            priority
          />
        )}
        <p className="text-sm text-neutral-700">
          <CategoryLink category={article.category} />
          {article.category && <span aria-hidden="true"> · </span>}
          <time dateTime={article.publishDate}>{formatDate(article.publishDate)}</time>
          <span aria-hidden="true"> · </span>
          <span>{article.readTime}</span>
        </p>
        <h1
          id={ARTICLE_TITLE_ID}
          tabIndex={-1}
          className="mt-3 text-3xl font-bold leading-tight focus:outline-none sm:text-4xl"
        >
          {article.title}
        </h1>
        <p className="mt-3 text-neutral-700">By {article.author}</p>
        <div className="prose-article mt-10" dangerouslySetInnerHTML={{ __html: article.contentHtml }} />
      </article>
      {after}
      {withNav && <ArticleNav previous={previous} next={next} mode={mode} />}
    </div>
  );
}

const navButton =
  "flex w-full flex-col gap-1 rounded-lg border border-neutral-300 px-4 py-3 text-left transition-colors enabled:hover:border-brand-700 enabled:hover:bg-brand-50 disabled:cursor-not-allowed disabled:text-neutral-500 sm:w-auto sm:min-w-56 sm:max-w-80";

function ArticleNav({
  previous,
  next,
  mode,
}: {
  previous: Neighbour | null;
  next: Neighbour | null;
  mode: ArticleNavMode;
}) {
  const prevButton = (
    <button
      type="submit"
      name={mode === "in-place" ? "article" : undefined}
      value={previous?.slug}
      disabled={!previous}
      className={navButton}
    >
      <span className="font-semibold">
        <span aria-hidden="true">← </span>Previous
      </span>
      <span className={`line-clamp-2 text-sm ${previous ? "text-neutral-700" : "text-neutral-600"}`}>
        {previous ? previous.title : "This is the newest article"}
      </span>
    </button>
  );
  const nextButton = (
    <button
      type="submit"
      name={mode === "in-place" ? "article" : undefined}
      value={next?.slug}
      disabled={!next}
      className={`${navButton} sm:items-end sm:text-right`}
    >
      <span className="font-semibold">
        Next<span aria-hidden="true"> →</span>
      </span>
      <span className={`line-clamp-2 text-sm ${next ? "text-neutral-700" : "text-neutral-600"}`}>
        {next ? next.title : "This is the oldest article"}
      </span>
    </button>
  );
  const layout = "mt-12 flex flex-col gap-3 border-t border-neutral-200 pt-8 sm:flex-row sm:justify-between";
  const transition = followLink({ loading: "Loading article...", focus: "article" });

  if (mode === "in-place") {
    return (
      <nav aria-label="More articles">
        <form method="get" action="/blog" className={layout} {...transition}>
          {prevButton}
          {nextButton}
        </form>
      </nav>
    );
  }
  return (
    <nav aria-label="More articles" className={layout}>
      <form method="get" action={previous ? `/blog/${previous.slug}` : undefined} className="flex" {...transition}>
        {prevButton}
      </form>
      <form method="get" action={next ? `/blog/${next.slug}` : undefined} className="flex" {...transition}>
        {nextButton}
      </form>
    </nav>
  );
}
