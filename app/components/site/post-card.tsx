import { categoryLinkText } from "~/content/categories";
import { categoryHref, categorySlugOf } from "~/lib/categories";
import { followLink, postCardId } from "~/lib/page-transition";
import { formatDate } from "~/lib/dates";
import type { PostSummary } from "~/server/posts/index.server";
import { PostImage } from "./post-image";

/**
 * A post in a list. The title links to /blog/{slug} (a real, crawlable page);
 * the whole card is clickable through that link. With `inPlaceHref`, a
 * plain click opens that address instead once the page's script runs (the
 * blog opens the article in place, docs/product/interface.md#in-place-article); without it, the link just works.
 *
 * The category's page has its own link, below the article in the card
 * (ADR 041): links cannot nest, and a card's `<article>` holds one link, its
 * title's, which covers the whole card with a pseudo-element; the category's
 * link sits above that (`relative z-10`). A click on it opens the category,
 * anywhere else on the card the article.
 */
export function PostCard({
  post,
  headingLevel = 2,
  inPlaceHref,
  currentCategory,
}: {
  post: PostSummary;
  headingLevel?: 2 | 3;
  inPlaceHref?: string;
  /** On a category's page, that category's slug: the card does not link the page it is on. */
  currentCategory?: string;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const categorySlug = post.category ? categorySlugOf(post.category) : "";
  return (
    <div className="relative flex flex-col overflow-hidden rounded-lg border border-neutral-200 bg-white shadow-sm transition-shadow focus-within:shadow-md hover:shadow-md">
      <article id={postCardId(post.slug)} className="flex flex-1 flex-col">
        {post.headerImage ? (
          <PostImage
            src={post.headerImage}
            sizes="(min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw"
            className="aspect-[16/9] w-full object-cover"
          />
        ) : (
          <div aria-hidden="true" className="aspect-[16/9] w-full bg-gradient-to-br from-brand-100 to-brand-600" />
        )}
        <div className="flex flex-1 flex-col gap-2 p-5">
          <p className="text-sm text-neutral-700">
            {post.category && <span className="font-semibold text-brand-700">{post.category}</span>}
            {post.category && " · "}
            <time dateTime={post.publishDate}>{formatDate(post.publishDate)}</time>
          </p>
          <Heading className="text-xl font-semibold leading-snug">
            <a
              href={`/blog/${post.slug}`}
              className="after:absolute after:inset-0 after:content-[''] hover:underline"
              {...(inPlaceHref && followLink({ href: inPlaceHref, loading: "Loading article...", focus: "article" }))}
            >
              {post.title}
            </a>
          </Heading>
          <p className="line-clamp-3 text-neutral-700">{post.excerpt}</p>
          <p className="mt-auto pt-2 text-sm text-neutral-700">
            {post.author} · {post.readTime}
          </p>
        </div>
      </article>
      {categorySlug && categorySlug !== currentCategory && (
        <p className="px-5 pb-5 text-sm">
          <a
            href={categoryHref(categorySlug)}
            {...followLink({ loading: "Loading articles..." })}
            className="relative z-10 font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900"
          >
            {categoryLinkText(post.category)}
          </a>
        </p>
      )}
    </div>
  );
}

/** A post's category in an article: a link to the category's page, or plain text when the name has no slug. */
export function CategoryLink({ category }: { category: string }) {
  if (!category) return null;
  const slug = categorySlugOf(category);
  if (!slug) return <span className="font-semibold text-brand-700">{category}</span>;
  return (
    <a
      href={categoryHref(slug)}
      {...followLink({ loading: "Loading articles..." })}
      className="font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-900"
    >
      {category}
    </a>
  );
}
