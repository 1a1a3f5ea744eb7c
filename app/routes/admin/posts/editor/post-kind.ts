/**
 * A post as the shared editor parts see it (ADR 065): its revisions over
 * /api/admin/posts/{id}/revisions (ADR 043), compared with the form and
 * restored into it; its share links (ADR 044).
 */
import type { DocumentKind, FieldChange, RevisionItem } from "~/components/admin/editing/document-kind";
import { postFieldNames, postRevisionTexts, postValueWords } from "~/content/revisions";
import { SHARE_LINK_TEXTS } from "~/content/share-links";
import type { PostDraft } from "../post-draft";
import { fetchRevision, fetchRevisions, type Revision, type RevisionSummary } from "./revisions-api";

/**
 * What restoring a revision puts in the form: its words and fields; the
 * post's id and author, and where and whether it is published (slug, publish
 * date, Published) and whether it is e-mailed to subscribers, stay as the
 * form has them, so restoring an old version's text never unpublishes the
 * post, moves its address or starts or stops its mailing on the next Save.
 */
export function draftFromRevision(revision: Revision, current: PostDraft): PostDraft {
  return {
    id: current.id,
    title: revision.title,
    slug: current.slug,
    excerpt: revision.excerpt,
    content: revision.content,
    category: revision.category,
    author: revision.author ?? current.author,
    publishDate: current.publishDate,
    readTime: revision.readTime,
    published: current.published,
    headerImage: revision.headerImage,
    metaTitle: revision.metaTitle,
    metaDescription: revision.metaDescription,
    headerImageAlt: revision.headerImageAlt,
    noindex: revision.noindex,
    emailSubscribers: current.emailSubscribers,
  };
}

/** The texts compared word by word, then the other fields a restore brings back (draftFromRevision). */
const TEXTS = ["title", "excerpt", "content"] as const;
const OTHERS = [
  "category",
  "readTime",
  "headerImage",
  "headerImageAlt",
  "metaTitle",
  "metaDescription",
  "noindex",
] as const;

const ISO_DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{3})?Z$/;

/** A field's value in words; dates in the browser's time zone, to the second. */
const shown = (value: unknown) =>
  typeof value === "string" && value.length <= 30 && ISO_DATE.test(value)
    ? new Date(value).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "medium" })
    : value === true
      ? postValueWords.yes
      : value === false
        ? postValueWords.no
        : value === null || value === ""
          ? postValueWords.empty
          : typeof value === "string"
            ? value
            : JSON.stringify(value);

function postChanges(revision: Revision, draft: PostDraft): FieldChange[] {
  const texts = TEXTS.filter((key) => draft[key] !== revision[key]).map((key) => ({
    name: postFieldNames[key],
    now: draft[key],
    then: revision[key],
  }));
  const others = OTHERS.filter((key) => shown(draft[key]) !== shown(revision[key])).map((key) => ({
    name: postFieldNames[key],
    now: shown(draft[key]),
    then: shown(revision[key]),
    short: true,
  }));
  return [...texts, ...others];
}

const itemOf = (summary: RevisionSummary): RevisionItem => ({
  id: summary.id,
  number: summary.number,
  at: summary.createdAt,
  by: summary.savedBy || null,
});

/** The post in the form: `onRestore` puts a revision back in it. */
export function postKind(draft: PostDraft, onRestore: (draft: PostDraft) => void): DocumentKind<Revision> {
  const id = draft.id ?? "";
  return {
    revisions: {
      restoreInto: "form",
      texts: postRevisionTexts,
      listKey: id,
      list: async (signal) => (await fetchRevisions(id, signal)).map(itemOf),
      load: (revisionId, signal) => fetchRevision(id, revisionId, signal),
      changes: (revision) => postChanges(revision, draft),
      apply: (revision) => onRestore(draftFromRevision(revision, draft)),
    },
    shareLinks: {
      url: draft.id ? `/api/admin/posts/${encodeURIComponent(draft.id)}/preview-links` : undefined,
      texts: SHARE_LINK_TEXTS.post,
    },
  };
}
