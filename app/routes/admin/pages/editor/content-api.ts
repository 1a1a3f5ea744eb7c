/**
 * The Pages editor's calls to /api/admin/content (ADR 053, docs/api.md#site-content-admin).
 * Each failure carries the server's own words (`detail`) for the status line.
 */
import type { ContentDocument, ContentName } from "~/lib/site-content";
import type { ContentDraft, ContentRevision, ContentRevisionSummary } from "~/server/pages/index.server";

export class ContentApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    /** A 409 because another tab or administrator saved or published first (it names their version). */
    readonly conflict = false,
  ) {
    super(detail);
  }
}

async function call<T>(url: string, init: RequestInit = {}): Promise<{ body: T; response: Response }> {
  let response: Response;
  try {
    response = await fetch(url, {
      credentials: "include",
      ...init,
      headers: {
        Accept: "application/json",
        ...(init.body ? { "Content-Type": "application/json" } : {}),
        ...init.headers,
      },
    });
  } catch {
    throw new ContentApiFailure(0, "the server could not be reached");
  }
  const text = await response.text();
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: the status says enough
  }
  if (!response.ok) {
    const failure = (body ?? {}) as { error?: unknown; version?: unknown; draftVersion?: unknown };
    throw new ContentApiFailure(
      response.status,
      typeof failure.error === "string" ? failure.error : `the server answered ${response.status}`,
      response.status === 409 && (typeof failure.version === "number" || typeof failure.draftVersion === "number"),
    );
  }
  return { body: body as T, response };
}

const base = (name: ContentName) => `/api/admin/content/${name}`;

export async function saveDraft(
  name: ContentName,
  draft: { document: ContentDocument; baseVersion: number; overDraftVersion: number },
): Promise<ContentDraft> {
  return (await call<ContentDraft>(`${base(name)}/draft`, { method: "PUT", body: JSON.stringify(draft) })).body;
}

export async function discardDraft(name: ContentName): Promise<void> {
  await call(`${base(name)}/draft`, { method: "DELETE" });
}

/** Publishes a document over version `baseVersion` (409 when another was published since); the draft goes with it. */
export async function publish(name: ContentName, document: ContentDocument, baseVersion: number): Promise<number> {
  const { response } = await call(`${base(name)}?discardDraft=1`, {
    method: "PUT",
    headers: { "If-Match": `"${baseVersion}"` },
    body: JSON.stringify(document),
  });
  return Number((response.headers.get("ETag") ?? "").replaceAll('"', ""));
}

export async function fetchRevisions(name: ContentName, signal?: AbortSignal): Promise<ContentRevisionSummary[]> {
  return (await call<{ revisions: ContentRevisionSummary[] }>(`${base(name)}/revisions`, { signal })).body.revisions;
}

export async function fetchRevision(name: ContentName, id: string, signal?: AbortSignal): Promise<ContentRevision> {
  return (await call<ContentRevision>(`${base(name)}/revisions/${encodeURIComponent(id)}`, { signal })).body;
}

/** Uploads a team photo through the same call and rules as every image upload; answers its URL. */
export async function uploadPhoto(file: File): Promise<string> {
  const form = new FormData();
  form.append("image", file);
  let response: Response;
  try {
    response = await fetch("/api/admin/upload", { method: "POST", credentials: "include", body: form });
  } catch {
    throw new ContentApiFailure(0, "the server could not be reached");
  }
  const body = (await response.json().catch(() => ({}))) as { url?: string; error?: string };
  if (!response.ok || !body.url)
    throw new ContentApiFailure(response.status, body.error ?? `the server answered ${response.status}`);
  return body.url;
}
