/**
 * A page as the shared editor parts see it (ADR 053, ADR 065): its published
 * versions over /api/admin/content/{name}/revisions, compared with the live
 * page field by field and published again after a question; its share links.
 */
import type { Confirmation } from "~/components/admin/editing/confirmation";
import type { DocumentKind, FieldChange, RevisionItem } from "~/components/admin/editing/document-kind";
import { pageRevisionTexts as texts } from "~/content/revisions";
import { SHARE_LINK_TEXTS } from "~/content/share-links";
import type { ContentRevision, ContentRevisionSummary } from "~/server/pages/index.server";
import * as api from "./content-api";
import { itemLabelOf, labelOf } from "./form-model";
import type { PageEditing } from "./use-page-editing";

/** Every text of a document by a readable name: "For Media › Package 2 › Price". */
function flatten(value: unknown, name = "", out = new Map<string, string>(), listKey = ""): Map<string, string> {
  if (Array.isArray(value)) {
    value.forEach((item, index) => flatten(item, `${name} › ${itemLabelOf(listKey, index)}`, out));
  } else if (value !== null && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      flatten(child, name ? `${name} › ${labelOf(key)}` : labelOf(key), out, key);
    }
  } else if (typeof value === "string" || typeof value === "boolean" || typeof value === "number") {
    out.set(name, String(value));
  }
  return out;
}

/** What changes from the live document (`now`) to a kept version (`then`), field by field. */
function changesBetween(now: unknown, then: unknown): FieldChange[] {
  const before = flatten(now);
  const after = flatten(then);
  return [...new Set([...before.keys(), ...after.keys()])]
    .filter((field) => before.get(field) !== after.get(field))
    .map((field) => ({ name: field, now: before.get(field) ?? "", then: after.get(field) ?? "" }));
}

const itemOf = (summary: ContentRevisionSummary): RevisionItem => ({
  id: summary.id,
  number: summary.version,
  // The original copy was never published by anyone: no time or name.
  at: summary.version === 0 ? null : summary.publishedAt,
  by: summary.version === 0 ? null : summary.publishedBy,
});

export function pageKind({
  editing,
  initial,
  ask,
  onNotice,
}: {
  editing: PageEditing;
  /** The versions the screen loaded with the page. */
  initial: ContentRevisionSummary[];
  ask: (confirmation: Confirmation) => void;
  onNotice: (text: string | undefined) => void;
}): DocumentKind<ContentRevision> {
  const { name, published } = editing;
  async function publishAgain(item: RevisionItem) {
    const revision = await api.fetchRevision(name, item.id);
    if (await editing.publish(revision.document)) onNotice(texts.restored(item.number));
  }
  return {
    revisions: {
      restoreInto: "live",
      texts,
      // A publish (here or a restore) adds a version: the list is read again.
      listKey: published.version,
      initial: initial.map(itemOf),
      list: async (signal) => (await api.fetchRevisions(name, signal)).map(itemOf),
      load: (id, signal) => api.fetchRevision(name, id, signal),
      changes: (revision) => changesBetween(published.document, revision.document),
      isCurrent: (item) => item.number === published.version,
      restore: (item) => {
        const title = texts.version(item.number);
        ask({
          title: `${texts.restore}: ${title}`,
          description: texts.restoreConfirm(item.number),
          confirm: texts.restore,
          run: () => void publishAgain(item),
        });
      },
    },
    shareLinks: {
      url: `/api/admin/content/${name}/share-links`,
      texts: SHARE_LINK_TEXTS.page,
      beforeCreate: editing.flush,
    },
  };
}
