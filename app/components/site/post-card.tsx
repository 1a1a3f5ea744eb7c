import { followLink, postCardId } from "~/lib/page-transition";
import { formatDate } from "~/lib/dates";
import type { PostSummary } from "~/server/public-posts.server";
import { PostImage } from "./post-image";

/**
 * A post in a list. The title links to /blog/{slug} (a real, crawlable page);
 * the whole card is clickable through that link. With `inPlaceHref`, a
 * plain click opens that address instead once the page's script runs (the
 * blog opens the article in place, SPEC §2); without it, the link just works.
 */
export function PostCard({
  post,
  headingLevel = 2,
  inPlaceHref,
}: {
  post: PostSummary;
  headingLevel?: 2 | 3;
  inPlaceHref?: string;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article
      id={postCardId(post.slug)}
      className="relative flex flex-col overflow-hidden rounded-lg border border-neutral-200 bg-white shadow-sm transition-shadow focus-within:shadow-md hover:shadow-md"
    >
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
  );
}
