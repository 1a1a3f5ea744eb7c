import { Link } from "react-router";
import { formatDate } from "~/lib/dates";
import { PostImage } from "./post-image";

export interface PostSummary {
  id: string;
  slug: string;
  title: string;
  excerpt: string;
  category: string;
  author: string;
  readTime: string;
  publishDate: string;
  headerImage: string | null;
}

export function PostCard({ post, headingLevel = 2 }: { post: PostSummary; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="flex flex-col overflow-hidden rounded-lg border border-neutral-200 bg-white shadow-sm">
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
          <Link to={`/blog/${post.slug}`} className="hover:underline">
            {post.title}
          </Link>
        </Heading>
        <p className="line-clamp-3 text-neutral-700">{post.excerpt}</p>
        <p className="mt-auto pt-2 text-sm text-neutral-700">
          {post.author} · {post.readTime}
        </p>
      </div>
    </article>
  );
}
