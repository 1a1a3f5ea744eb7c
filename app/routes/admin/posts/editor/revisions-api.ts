/**
 * The editor's calls for revisions and autosaved drafts (ADR 043):
 * /api/admin/posts/:id/revisions[/:revisionId] and /api/admin/posts/:id/autosave.
 */
import type { Autosave, Revision, RevisionSummary } from "~/server/posts/index.server";
import { ApiFailure, conflictUpdatedAt, EditConflict, explain } from "../admin-api";
import type { PostDraft } from "../post-draft";

export type { Autosave, Revision, RevisionSummary };

const postPath = (id: string) => `/api/admin/posts/${encodeURIComponent(id)}`;

async function getJson<T>(url: string, what: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(url, {
    credentials: "include",
    headers: { Accept: "application/json" },
    cache: "no-store",
    signal,
  });
  const body = await response.text();
  if (!response.ok) throw new ApiFailure(what, response.status, explain(body, response.status));
  return JSON.parse(body) as T;
}

/** The post's kept revisions, newest first. */
export async function fetchRevisions(postId: string, signal?: AbortSignal): Promise<RevisionSummary[]> {
  const answer = await getJson<{ revisions: RevisionSummary[] }>(
    `${postPath(postId)}/revisions`,
    "Failed to fetch revisions",
    signal,
  );
  return answer.revisions;
}

export function fetchRevision(postId: string, revisionId: string, signal?: AbortSignal): Promise<Revision> {
  return getJson<Revision>(
    `${postPath(postId)}/revisions/${encodeURIComponent(revisionId)}`,
    "Failed to fetch revision",
    signal,
  );
}

/** The signed-in administrator's autosaved draft of the post; undefined when there is none. */
export async function fetchAutosave(postId: string, signal?: AbortSignal): Promise<Autosave | undefined> {
  try {
    return await getJson<Autosave>(`${postPath(postId)}/autosave`, "Failed to fetch draft", signal);
  } catch (error) {
    if (error instanceof ApiFailure && error.status === 404) return undefined;
    throw error;
  }
}

/** Keeps the draft on the server; EditConflict when the post was saved since `baseUpdatedAt`. */
export async function putAutosave(draft: PostDraft & { id: string }, baseUpdatedAt: string): Promise<Autosave> {
  const { id, ...fields } = draft;
  const response = await fetch(`${postPath(id)}/autosave`, {
    method: "PUT",
    credentials: "include",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ ...fields, headerImage: fields.headerImage || null, baseUpdatedAt }),
  });
  const body = await response.text();
  const updatedAt = response.status === 409 ? conflictUpdatedAt(body) : undefined;
  if (updatedAt) throw new EditConflict("Failed to keep draft", explain(body, 409), updatedAt);
  if (!response.ok) throw new ApiFailure("Failed to keep draft", response.status, explain(body, response.status));
  return JSON.parse(body) as Autosave;
}

export async function deleteAutosave(postId: string): Promise<void> {
  await fetch(`${postPath(postId)}/autosave`, { method: "DELETE", credentials: "include" });
}
