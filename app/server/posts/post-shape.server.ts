import type { Selectable } from "kysely";
import type { PostsTable } from "../db/schema.server";

/**
 * The post's shapes, for the admin and the public alike: what the HTTP
 * contract shows (docs/product/contract.md#posts), the smaller shapes of lists and
 * pages, the columns each reads and how a row becomes each. The reads that
 * use them are public-posts.server.ts (the public) and posts.server.ts (the admin).
 * The admin's shapes add the post's options visitors have no business
 * seeing (AdminPost); the public ones are built field by field, so such an
 * option never reaches them.
 */

type Row = Selectable<PostsTable>;

/** A post as the HTTP contract shows it (docs/product/contract.md#posts), to the public (the admin sees AdminPost). */
export interface Post {
  id: string;
  title: string;
  slug: string;
  excerpt: string;
  content: string;
  category: string;
  author: string;
  publishDate: string;
  readTime: string;
  published: boolean;
  headerImage: string | null;
  createdAt: string;
  updatedAt: string;
  /** Per-post SEO (docs/product/contract.md#post-seo-fields): null means the title, the excerpt, the title again. */
  metaTitle: string | null;
  metaDescription: string | null;
  headerImageAlt: string | null;
  /** Hidden from search engines: a robots noindex tag, left out of the sitemap and feeds. */
  noindex: boolean;
}

/** A post as the admin's API shows it: the public shape and the admin's own options. */
export interface AdminPost extends Post {
  /** Mail it to the newsletter's subscribers when it becomes public (issue 46). */
  emailSubscribers: boolean;
}

/** A post in the admin's list: everything but the markdown (the editor reads the whole post by id). */
export type PostListItem = Omit<AdminPost, "content">;

/** What a card in the blog's list or a slide of the landing page's carousel shows. */
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

/** An article page or a feed item: the summary, its body, its last change and its SEO fields. */
export interface Article extends PostSummary {
  /** Sanitised by the markdown pipeline when the post was saved. */
  contentHtml: string;
  updatedAt: string;
  metaTitle: string | null;
  metaDescription: string | null;
  headerImageAlt: string | null;
  noindex: boolean;
}

/** The article that Previous or Next leads to. */
export interface Neighbour {
  slug: string;
  title: string;
}

/** A public post's address in the sitemap and when it last changed. */
export interface PostUrl {
  slug: string;
  lastModified: string;
}

/** The columns the public API and the admin's list share: all but the markdown, the stored HTML and the admin's own. */
const SHARED_COLUMNS = [
  "id",
  "title",
  "slug",
  "excerpt",
  "category",
  "author",
  "publish_date",
  "read_time",
  "published",
  "header_image",
  "created_at",
  "updated_at",
  "meta_title",
  "meta_description",
  "header_image_alt",
  "noindex",
] as const;

/** A post as the public API shows it: every column but the stored HTML and the admin's own. */
export const POST_COLUMNS = [...SHARED_COLUMNS, "content"] as const;

/** The post's options only the admin reads. */
const ADMIN_ONLY_COLUMNS = ["email_subscribers"] as const;

/** Every column of a post in the admin's list: all but the markdown and the stored HTML. */
export const POST_LIST_COLUMNS = [...SHARED_COLUMNS, ...ADMIN_ONLY_COLUMNS] as const;

/** A post as the admin's API shows it: every column but the stored HTML. */
export const ADMIN_POST_COLUMNS = [...POST_LIST_COLUMNS, "content"] as const;

export const SUMMARY_COLUMNS = [
  "id",
  "slug",
  "title",
  "excerpt",
  "category",
  "author",
  "read_time",
  "publish_date",
  "header_image",
] as const;

export const ARTICLE_COLUMNS = [
  ...SUMMARY_COLUMNS,
  "content_html",
  "updated_at",
  "meta_title",
  "meta_description",
  "header_image_alt",
  "noindex",
] as const;

function sharedFields(row: Pick<Row, (typeof SHARED_COLUMNS)[number]>): Omit<Post, "content"> {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    excerpt: row.excerpt,
    category: row.category,
    author: row.author,
    publishDate: row.publish_date,
    readTime: row.read_time,
    published: Boolean(row.published),
    headerImage: row.header_image,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    metaTitle: row.meta_title,
    metaDescription: row.meta_description,
    headerImageAlt: row.header_image_alt,
    noindex: Boolean(row.noindex),
  };
}

export function toPost(row: Pick<Row, (typeof POST_COLUMNS)[number]>): Post {
  return { ...sharedFields(row), content: row.content };
}

export function toPostListItem(row: Pick<Row, (typeof POST_LIST_COLUMNS)[number]>): PostListItem {
  return { ...sharedFields(row), emailSubscribers: Boolean(row.email_subscribers) };
}

export function toAdminPost(row: Pick<Row, (typeof ADMIN_POST_COLUMNS)[number]>): AdminPost {
  return { ...toPostListItem(row), content: row.content };
}

export function toSummary(row: Pick<Row, (typeof SUMMARY_COLUMNS)[number]>): PostSummary {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    excerpt: row.excerpt,
    category: row.category,
    author: row.author,
    readTime: row.read_time,
    publishDate: row.publish_date,
    headerImage: row.header_image,
  };
}

export function toArticle(row: Pick<Row, (typeof ARTICLE_COLUMNS)[number]>): Article {
  return {
    ...toSummary(row),
    contentHtml: row.content_html,
    updatedAt: row.updated_at,
    metaTitle: row.meta_title,
    metaDescription: row.meta_description,
    headerImageAlt: row.header_image_alt,
    noindex: Boolean(row.noindex),
  };
}
