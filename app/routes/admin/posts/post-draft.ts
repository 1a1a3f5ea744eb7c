import { DEFAULT_READ_TIME, REQUIRED_FIELDS_MESSAGE } from "~/lib/post-rules";
import type { AdminPost } from "~/server/posts/index.server";

/** The texts the admin screen shows with window.alert / window.confirm (docs/product/contract.md#admin-alerts). */
export const NO_POST_MESSAGE = "No post data to save";
export const DELETE_CONFIRMATION = "Are you sure you want to delete this post?";
export const LEAVE_CONFIRMATION = "You have unsaved changes. Leave this page and lose them?";

/** What the editor holds: every post field the API takes (docs/product/contract.md#posts); no id until it is first saved. */
export type PostDraft = Omit<AdminPost, "id" | "createdAt" | "updatedAt"> & { id?: string };

/** New-post defaults (docs/product/contract.md#new-post-defaults). */
export function newPostDraft(author: string, now = new Date()): PostDraft {
  return {
    title: "",
    slug: "",
    excerpt: "",
    content: "",
    category: "",
    author,
    publishDate: now.toISOString(),
    readTime: DEFAULT_READ_TIME,
    published: false,
    headerImage: null,
    metaTitle: null,
    metaDescription: null,
    headerImageAlt: null,
    noindex: false,
    emailSubscribers: false,
  };
}

export function draftFromPost(post: PostDraft & { id: string }): PostDraft {
  return {
    id: post.id,
    title: post.title,
    slug: post.slug,
    excerpt: post.excerpt,
    content: post.content,
    category: post.category,
    author: post.author,
    publishDate: post.publishDate,
    readTime: post.readTime,
    published: post.published,
    headerImage: post.headerImage,
    metaTitle: post.metaTitle ?? null,
    metaDescription: post.metaDescription ?? null,
    headerImageAlt: post.headerImageAlt ?? null,
    noindex: post.noindex ?? false,
    emailSubscribers: post.emailSubscribers ?? false,
  };
}

/** Title, slug, excerpt and content must not be empty; the alert text when one is (docs/product/contract.md#required-fields). */
export function missingRequiredFields(draft: PostDraft): string | undefined {
  const empty = [draft.title, draft.slug, draft.excerpt, draft.content].some((value) => value.trim() === "");
  return empty ? REQUIRED_FIELDS_MESSAGE : undefined;
}

/** A header image needs a text for people who cannot see it (issue 18); the message when it has none. */
const IMAGE_ALT_MESSAGE = "Describe the header image in its alt text: people who cannot see it read that instead";

export function missingImageAlt(draft: PostDraft): string | undefined {
  return draft.headerImage && !draft.headerImageAlt?.trim() ? IMAGE_ALT_MESSAGE : undefined;
}

export function sameDraft(a: PostDraft, b: PostDraft): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

const pad = (n: number) => String(n).padStart(2, "0");

/** ISO date-time to the value of an <input type="datetime-local"> in the browser's time zone. */
export function toLocalInputValue(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The input's local value back to ISO; an empty or unreadable value gives undefined. */
export function fromLocalInputValue(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
