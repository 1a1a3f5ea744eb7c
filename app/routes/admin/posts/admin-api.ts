/**
 * The admin screen's calls to the JSON API (docs/product/contract.md#http-contract). Error texts
 * follow docs/product/contract.md#admin-alerts; each failure also carries the server's own explanation
 * (`detail`) so the editor can say in plain words what went wrong.
 */
import type { AdminPost } from "~/server/posts/index.server";
import type { PublishCheck } from "~/lib/publish-check";
import type { PostDraft } from "./post-draft";

export class ApiFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly detail: string,
  ) {
    super(message);
  }
}

/** The `error` of a JSON error body, or the text itself. */
export function explain(body: string, status: number): string {
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    if (typeof parsed.error === "string") return parsed.error;
  } catch {
    // not JSON
  }
  return body.trim() || `the server answered ${status}`;
}

/** A saved post, as the API answers it. */
export type SavedPost = AdminPost;

/** The post was saved elsewhere since the editor opened it (409 to a PUT with a base, ADR 043). */
export class EditConflict extends ApiFailure {
  constructor(
    message: string,
    detail: string,
    /** The stored version's updatedAt: the base for saving over it on purpose. */
    readonly updatedAt: string,
  ) {
    super(message, 409, detail);
  }
}

/** The updatedAt of a 409 answer's body, when it names one. */
export function conflictUpdatedAt(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { updatedAt?: unknown };
    return typeof parsed.updatedAt === "string" ? parsed.updatedAt : undefined;
  } catch {
    return undefined;
  }
}

/**
 * POST when the post has no id, PUT otherwise. Throws "Failed to save post:
 * {status} {body}"; EditConflict when `baseUpdatedAt` is no longer the stored version.
 */
export async function savePost(
  draft: PostDraft,
  { baseUpdatedAt }: { baseUpdatedAt?: string } = {},
): Promise<SavedPost> {
  const { id, ...fields } = draft;
  const response = await fetch(id ? `/api/admin/posts/${encodeURIComponent(id)}` : "/api/admin/posts", {
    method: id ? "PUT" : "POST",
    credentials: "include",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ ...fields, headerImage: fields.headerImage || null, ...(id ? { baseUpdatedAt } : {}) }),
  });
  const body = await response.text();
  const updatedAt = response.status === 409 ? conflictUpdatedAt(body) : undefined;
  if (updatedAt) {
    throw new EditConflict(`Failed to save post: ${response.status} ${body}`, explain(body, 409), updatedAt);
  }
  if (!response.ok) {
    throw new ApiFailure(
      `Failed to save post: ${response.status} ${body}`,
      response.status,
      explain(body, response.status),
    );
  }
  return JSON.parse(body) as SavedPost;
}

/** One post whole, markdown included, as the editor opens it (the list's items leave the markdown out). */
export async function fetchPost(id: string): Promise<SavedPost> {
  const response = await fetch(`/api/admin/posts/${encodeURIComponent(id)}`, {
    credentials: "include",
    headers: { Accept: "application/json" },
    // Always the stored version: the post may have been saved a moment ago.
    cache: "no-store",
  });
  const body = await response.text();
  if (!response.ok) throw new ApiFailure("Failed to fetch post", response.status, explain(body, response.status));
  return JSON.parse(body) as SavedPost;
}

/** With `deleteImages`, the images only this post uses are deleted with it (ADR 036). */
export async function deletePost(id: string, { deleteImages = false }: { deleteImages?: boolean } = {}): Promise<void> {
  const query = deleteImages ? "?deleteImages=1" : "";
  const response = await fetch(`/api/admin/posts/${encodeURIComponent(id)}${query}`, {
    method: "DELETE",
    credentials: "include",
  });
  if (!response.ok) {
    const body = await response.text();
    throw new ApiFailure("Failed to delete post", response.status, explain(body, response.status));
  }
}

/** Uploads one image (field `image`); answers its URL. */
export async function uploadImage(file: File): Promise<string> {
  const form = new FormData();
  form.append("image", file);
  const response = await fetch("/api/admin/upload", { method: "POST", credentials: "include", body: form });
  const body = await response.text();
  if (!response.ok) {
    throw new ApiFailure("Failed to upload image", response.status, explain(body, response.status));
  }
  const { url } = JSON.parse(body) as { url: string };
  return url;
}

/** The HTML the public article would show for this markdown (same pipeline, on the server). */
export async function renderPreview(content: string, signal: AbortSignal): Promise<string> {
  const response = await fetch("/api/admin/preview", {
    method: "POST",
    credentials: "include",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ content }),
    signal,
  });
  const body = await response.text();
  if (!response.ok) throw new ApiFailure("Failed to render preview", response.status, explain(body, response.status));
  return (JSON.parse(body) as { html: string }).html;
}

/**
 * The check before publishing (ADR 057): what in the body would greet
 * readers broken. Advice only: undefined when it could not be asked (the
 * save that follows reports a real failure).
 */
export async function checkBeforePublishing(draft: PostDraft): Promise<PublishCheck | undefined> {
  try {
    const response = await fetch("/api/admin/posts/check", {
      method: "POST",
      credentials: "include",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ content: draft.content, publishDate: draft.publishDate, slug: draft.slug, id: draft.id }),
    });
    return response.ok ? ((await response.json()) as PublishCheck) : undefined;
  } catch {
    return undefined;
  }
}
