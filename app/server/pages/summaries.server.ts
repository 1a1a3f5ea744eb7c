/**
 * The editable pages at a glance, for the Pages screen and GET
 * /api/admin/content (ADR 053): each one's published version, who published
 * it and when, and whether a draft waits. A fixed list of CONTENT_NAMES.
 */
import { CONTENT_NAMES, type ContentName } from "~/lib/site-content";
import type { Db } from "../db/db.server";
import { readPublished } from "./documents.server";
import { readDraft } from "./drafts.server";

export interface ContentSummary {
  name: ContentName;
  version: number;
  publishedAt: string | null;
  publishedBy: string | null;
  hasDraft: boolean;
}

export function listContentSummaries(db: Db): Promise<ContentSummary[]> {
  return Promise.all(
    CONTENT_NAMES.map(async (name) => {
      const [published, draft] = await Promise.all([readPublished(db, name), readDraft(db, name)]);
      return {
        name,
        version: published.version,
        publishedAt: published.publishedAt,
        publishedBy: published.publishedBy,
        hasDraft: draft !== undefined,
      };
    }),
  );
}
