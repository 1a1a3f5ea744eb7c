import type { Transaction } from "kysely";
import { defaultContent } from "~/content/site-content-defaults";
import { CONTENT_NAMES, isContentName, type ContentDocuments, type ContentName } from "~/lib/site-content";
import { changingContent, contentVersionReader } from "../db/content-version.server";
import type { Connection, Db } from "../db/db.server";
import { isPostgres } from "../db/dialect.server";
import type { Database } from "../db/schema.server";
import { deleteDraft, findRevision, keepRevision, listRevisions, MAX_REVISIONS } from "../versioning/index.server";
import { pageDocument } from "./drafts.server";
import { keepingPageImages } from "./page-images.server";

/**
 * The published documents of the editable pages and their versions (ADR 053).
 * A page without a row shows its original copy (version 0). Publishing writes
 * the document and a revision of it and bumps the content version in one
 * transaction, so every process shows it on its next request. The versions
 * are the page's revisions in the versioning domain (ADR 064), numbered by
 * version; the newest MAX_CONTENT_REVISIONS of a page are kept.
 */

export const MAX_CONTENT_REVISIONS = MAX_REVISIONS;

export interface Published<N extends ContentName = ContentName> {
  name: N;
  document: ContentDocuments[N];
  version: number;
  publishedAt: string | null;
  publishedBy: string | null;
}

/** The published version changed since the editor opened it. */
export class ContentConflictError extends Error {
  constructor(readonly version: number) {
    super("This page was published in another tab or by another administrator since you opened it.");
  }
}

type Reader = Db | Transaction<Database>;

/** The page's published document; its original copy while none was published. */
export async function readPublished<N extends ContentName>(db: Reader, name: N): Promise<Published<N>> {
  const row = await db.selectFrom("site_content").selectAll().where("name", "=", name).executeTakeFirst();
  if (!row) return { name, document: defaultContent(name), version: 0, publishedAt: null, publishedBy: null };
  return {
    name,
    document: JSON.parse(row.document) as ContentDocuments[N],
    version: Number(row.version),
    publishedAt: row.published_at,
    publishedBy: row.published_by,
  };
}

type AllDocuments = { [N in ContentName]: ContentDocuments[N] };

/** Every page's published document, and when each was published (null: its original copy). */
interface PublicPages {
  documents: AllDocuments;
  publishedAt: Record<ContentName, string | null>;
}

const memos = new WeakMap<Connection, () => Promise<PublicPages>>();

function publicPages(connection: Connection): Promise<PublicPages> {
  let current = memos.get(connection);
  if (!current) memos.set(connection, (current = publishedMemo(connection)));
  return current();
}

/**
 * What the public pages show: every page's published document, read again
 * only when the content version changed (one primary-key read per call
 * otherwise). Each connection (each process) keeps its own.
 */
export async function publishedContent(connection: Connection): Promise<AllDocuments> {
  return (await publicPages(connection)).documents;
}

/** One page's published document and when it was published, from the same memo (the privacy page's date). */
export async function publishedPage<N extends ContentName>(
  connection: Connection,
  name: N,
): Promise<{ document: ContentDocuments[N]; publishedAt: string | null }> {
  const pages = await publicPages(connection);
  return { document: pages.documents[name], publishedAt: pages.publishedAt[name] };
}

function publishedMemo(connection: Connection): () => Promise<PublicPages> {
  const readVersion = contentVersionReader(connection);
  let kept: { version: string; pages: PublicPages } | undefined;
  return async () => {
    const version = await readVersion();
    if (kept?.version === version) return kept.pages;
    const rows = await connection.db.selectFrom("site_content").select(["name", "document", "published_at"]).execute();
    const pages = originalPages();
    for (const row of rows) {
      if (!isContentName(row.name)) continue;
      (pages.documents as Record<string, unknown>)[row.name] = JSON.parse(row.document);
      pages.publishedAt[row.name] = row.published_at;
    }
    // A read that saw an older version than one kept meanwhile does not replace it.
    if (!kept || BigInt(version) >= BigInt(kept.version)) kept = { version, pages };
    return pages;
  };
}

/** Every page with its original copy, never published. */
function originalPages(): PublicPages {
  return {
    documents: Object.fromEntries(CONTENT_NAMES.map((name) => [name, defaultContent(name)])) as AllDocuments,
    publishedAt: Object.fromEntries(CONTENT_NAMES.map((name) => [name, null])) as Record<ContentName, null>,
  };
}

/**
 * Publishes a checked document: the page shows it on its next request. With
 * `baseVersion`, refuses (ContentConflictError) when the published version is
 * another one. The version it replaces stays in the revisions (the original
 * copy too, as version 0, the first time). With `discardDraft`, the page's
 * draft goes in the same transaction.
 */
export async function publishContent<N extends ContentName>(
  db: Db,
  name: N,
  document: ContentDocuments[N],
  options: { by: string; baseVersion?: number; discardDraft?: boolean; now?: Date },
): Promise<Published<N>> {
  const at = (options.now ?? new Date()).toISOString();
  return changingContent(db, (trx) =>
    keepingPageImages(trx, name, () => writePublished(trx, name, document, options, at)),
  );
}

async function writePublished<N extends ContentName>(
  trx: Transaction<Database>,
  name: N,
  document: ContentDocuments[N],
  options: { by: string; baseVersion?: number; discardDraft?: boolean },
  at: string,
): Promise<Published<N>> {
  // The original copy as version 0, so the row exists to lock and the first publish keeps it.
  await trx
    .insertInto("site_content")
    .values({
      name,
      document: JSON.stringify(defaultContent(name)),
      version: 0,
      published_at: at,
      published_by: null,
    })
    .onConflict((conflict) => conflict.column("name").doNothing())
    .execute();
  const query = trx.selectFrom("site_content").selectAll().where("name", "=", name);
  const current = await (isPostgres(trx) ? query.forUpdate() : query).executeTakeFirstOrThrow();
  const currentVersion = Number(current.version);
  if (options.baseVersion !== undefined && options.baseVersion !== currentVersion)
    throw new ContentConflictError(currentVersion);
  const page = pageDocument(name);
  if (currentVersion === 0)
    await keepRevision(trx, page, {
      state: JSON.parse(current.document),
      savedBy: null,
      at: current.published_at,
      number: 0,
    });
  const version = currentVersion + 1;
  await trx
    .updateTable("site_content")
    .set({ document: JSON.stringify(document), version, published_at: at, published_by: options.by })
    .where("name", "=", name)
    .execute();
  await keepRevision(trx, page, { state: document, savedBy: options.by, at, number: version });
  if (options.discardDraft) await deleteDraft(trx, page, null);
  return { name, document, version, publishedAt: at, publishedBy: options.by };
}

export interface ContentRevisionSummary {
  id: string;
  version: number;
  publishedAt: string;
  publishedBy: string | null;
}

export interface ContentRevision<N extends ContentName = ContentName> extends ContentRevisionSummary {
  document: ContentDocuments[N];
}

/** A page's kept versions, newest first (at most MAX_CONTENT_REVISIONS, so the list is bounded). */
export async function listContentRevisions(db: Db, name: ContentName): Promise<ContentRevisionSummary[]> {
  const revisions = await listRevisions(db, pageDocument(name));
  return revisions.map((revision) => ({
    id: revision.id,
    version: revision.number,
    publishedAt: revision.savedAt,
    publishedBy: revision.savedBy,
  }));
}

export async function readContentRevision<N extends ContentName>(
  db: Db,
  name: N,
  id: string,
): Promise<ContentRevision<N> | undefined> {
  const revision = await findRevision<ContentDocuments[N]>(db, pageDocument(name), id);
  if (!revision) return undefined;
  return {
    id: revision.id,
    version: revision.number,
    publishedAt: revision.savedAt,
    publishedBy: revision.savedBy,
    document: revision.state,
  };
}
