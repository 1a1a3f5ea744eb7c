import { type ChangeObject, diffLines, diffWords } from "diff";
import { useEffect, useId, useState } from "react";
import { historyText, shortTime } from "~/content/revisions";
import { MAX_REVISIONS } from "~/lib/revisions";
import { ApiFailure } from "../admin-api";
import type { PostDraft } from "../post-draft";
import { fetchRevision, fetchRevisions, type Revision, type RevisionSummary } from "./revisions-api";

/** A word diff of long texts stops after this long and falls back to lines (jsdiff's timeout). */
const WORD_DIFF_MS = 150;

/**
 * What restoring a revision puts in the form: its words and fields; the
 * post's id and author, and where and whether it is published (slug, publish
 * date, Published), stay as the form has them, so restoring an old version's
 * text never unpublishes the post or moves its address on the next Save.
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
  };
}

function textDiff(form: string, version: string): ChangeObject<string>[] {
  return diffWords(form, version, { timeout: WORD_DIFF_MS }) ?? diffLines(form, version);
}

/** Insertions and deletions shown by more than colour: <ins>/<del>, a line through, and words for screen readers. */
function Changes({ parts, number }: { parts: ChangeObject<string>[]; number: number }) {
  return (
    <p className="whitespace-pre-wrap break-words rounded-md border border-neutral-200 bg-neutral-50 p-3 font-mono text-sm leading-relaxed">
      {parts.map((part, index) =>
        part.added ? (
          <ins key={index} className="mx-px bg-green-100 text-green-950 underline decoration-2 underline-offset-2">
            <span className="sr-only">{`[${historyText.onlyInVersion(number)}] `}</span>
            {part.value}
            <span className="sr-only"> [end]</span>
          </ins>
        ) : part.removed ? (
          <del key={index} className="mx-px bg-red-100 text-red-950 line-through decoration-2">
            <span className="sr-only">{`[${historyText.onlyInForm}] `}</span>
            {part.value}
            <span className="sr-only"> [end]</span>
          </del>
        ) : (
          <span key={index}>{part.value}</span>
        ),
      )}
    </p>
  );
}

/** The fields a restore brings back (draftFromRevision), compared beside the texts. */
const OTHER_FIELDS: Array<[keyof PostDraft & keyof Revision, string]> = [
  ["category", "Group"],
  ["readTime", "Reading length"],
  ["headerImage", "Image"],
  ["headerImageAlt", "Image description"],
  ["metaTitle", "Search result headline"],
  ["metaDescription", "Search result description"],
  ["noindex", "Hidden from search engines"],
];

const ISO_DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{3})?Z$/;

/** A field's value in words; dates in the browser's time zone, to the second. */
const shown = (value: unknown) =>
  typeof value === "string" && value.length <= 30 && ISO_DATE.test(value)
    ? new Date(value).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "medium" })
    : value === true
      ? "yes"
      : value === false
        ? "no"
        : value === null || value === ""
          ? "(empty)"
          : typeof value === "string"
            ? value
            : JSON.stringify(value);

function Comparison({ revision, draft }: { revision: Revision; draft: PostDraft }) {
  const names = historyText.fieldNames;
  const texts: Array<[string, string, string]> = [
    [names.title, draft.title, revision.title],
    [names.excerpt, draft.excerpt, revision.excerpt],
    [names.content, draft.content, revision.content],
  ];
  const others = OTHER_FIELDS.filter(([key]) => shown(draft[key]) !== shown(revision[key]));
  const changedTexts = texts.filter(([, form, version]) => form !== version);
  if (changedTexts.length === 0 && others.length === 0) return <p className="text-sm">{historyText.same}</p>;
  return (
    <div className="flex flex-col gap-3">
      <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-neutral-700">
        <span>
          <ins className="bg-green-100 text-green-950 underline decoration-2 underline-offset-2">
            {historyText.legendVersion(revision.number)[0]}
          </ins>
          {historyText.legendVersion(revision.number)[1]}
        </span>
        <span>
          <del className="bg-red-100 text-red-950 line-through decoration-2">{historyText.legendForm[0]}</del>
          {historyText.legendForm[1]}
        </span>
      </p>
      {changedTexts.map(([name, form, version]) => (
        <div key={name}>
          <h5 className="text-sm font-semibold text-neutral-800">{name}</h5>
          <Changes parts={textDiff(form, version)} number={revision.number} />
        </div>
      ))}
      {others.length > 0 && (
        <div>
          <h5 className="text-sm font-semibold text-neutral-800">{names.other}</h5>
          <dl className="mt-1 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
            {others.map(([key, name]) => (
              <div key={key} className="contents">
                <dt className="font-medium text-neutral-800">{name}</dt>
                <dd className="break-words">
                  <del className="bg-red-100 line-through">
                    <span className="sr-only">{`${historyText.onlyInForm}: `}</span>
                    {shown(draft[key])}
                  </del>{" "}
                  <span aria-hidden="true">→</span>{" "}
                  <ins className="bg-green-100 underline">
                    <span className="sr-only">{`${historyText.onlyInVersion(revision.number)}: `}</span>
                    {shown(revision[key])}
                  </ins>
                </dd>
              </div>
            ))}
          </dl>
        </div>
      )}
    </div>
  );
}

/**
 * The post's saved versions (ADR 043), newest first, loaded when asked for.
 * Choosing one compares it with the form; "Restore this version" puts it in
 * the form, and only Save makes it the post (as a new version).
 */
export function RevisionsPanel({
  postId,
  draft,
  onRestore,
}: {
  postId: string;
  draft: PostDraft;
  onRestore: (draft: PostDraft) => void;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [list, setList] = useState<{ revisions?: RevisionSummary[]; error?: string }>({});
  const [chosen, setChosen] = useState<{ summary: RevisionSummary; revision?: Revision; error?: string }>();
  const [restored, setRestored] = useState<number>();

  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    fetchRevisions(postId, controller.signal).then(
      (revisions) => setList({ revisions }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setList({ error: error instanceof ApiFailure ? error.detail : "the server could not be reached" });
      },
    );
    return () => controller.abort();
  }, [open, postId]);

  const chosenId = chosen?.summary.id;
  useEffect(() => {
    if (!chosenId) return;
    const controller = new AbortController();
    fetchRevision(postId, chosenId, controller.signal).then(
      (revision) => setChosen((c) => (c?.summary.id === revision.id ? { ...c, revision } : c)),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const detail = error instanceof ApiFailure ? error.detail : "the server could not be reached";
        setChosen((c) => c && { ...c, error: detail });
      },
    );
    return () => controller.abort();
  }, [postId, chosenId]);

  return (
    <section aria-labelledby={`${id}-heading`} className="mt-8 rounded-md border border-neutral-300 p-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id={`${id}-heading`} className="text-lg font-semibold">
          {historyText.heading}
        </h3>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={`${id}-body`}
          onClick={() => {
            setOpen(!open);
            setList({});
            setChosen(undefined);
          }}
          className="rounded-md border border-neutral-400 bg-white px-3 py-1.5 text-sm font-medium hover:bg-neutral-100"
        >
          {open ? historyText.hide : historyText.show}
        </button>
      </div>
      <div id={`${id}-body`} hidden={!open} className="mt-3">
        {open && (
          <>
            <p className="text-sm text-neutral-700">{historyText.intro(MAX_REVISIONS)}</p>
            <div aria-live="polite" className="text-sm">
              {!list.revisions && !list.error && <p className="mt-2">{historyText.loading}</p>}
              {restored !== undefined && <p className="mt-2 font-medium">{historyText.restored(restored)}</p>}
            </div>
            {list.error && (
              <p role="alert" className="mt-2 text-sm text-red-800">
                {historyText.failed(list.error)}
              </p>
            )}
            {list.revisions?.length === 0 && <p className="mt-2 text-sm">{historyText.empty}</p>}
            {list.revisions && list.revisions.length > 0 && (
              <ol className="mt-2 flex max-h-64 flex-col gap-1 overflow-y-auto">
                {list.revisions.map((summary) => (
                  <li key={summary.id} className="flex flex-wrap items-baseline gap-x-2">
                    {/* Who saved it stays outside the button's name: a name or e-mail may hold "Edit" or "Save". */}
                    <button
                      type="button"
                      aria-pressed={chosenId === summary.id}
                      onClick={() => setChosen(chosenId === summary.id ? undefined : { summary })}
                      className="rounded-md px-2 py-1.5 text-left text-sm hover:bg-neutral-100 aria-pressed:bg-brand-50 aria-pressed:font-semibold"
                    >
                      {historyText.item(summary.number, summary.createdAt)}
                    </button>
                    {summary.savedBy && (
                      <span className="text-sm text-neutral-700">{historyText.savedBy(summary.savedBy)}</span>
                    )}
                  </li>
                ))}
              </ol>
            )}
            {chosen && (
              <div className="mt-4 flex flex-col gap-3 border-t border-neutral-200 pt-4">
                <h4 className="font-semibold">{historyText.compareHeading(chosen.summary.number)}</h4>
                <p className="text-sm text-neutral-700">
                  {shortTime(chosen.summary.createdAt)}
                  {chosen.summary.savedBy && ` · ${chosen.summary.savedBy}`}
                </p>
                {chosen.error && (
                  <p role="alert" className="text-sm text-red-800">
                    {historyText.failed(chosen.error)}
                  </p>
                )}
                {!chosen.revision && !chosen.error && <p className="text-sm">{historyText.loadingOne}</p>}
                {chosen.revision && (
                  <>
                    <Comparison revision={chosen.revision} draft={draft} />
                    <div>
                      <button
                        type="button"
                        onClick={() => {
                          onRestore(draftFromRevision(chosen.revision!, draft));
                          setRestored(chosen.summary.number);
                          setChosen(undefined);
                        }}
                        className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
                      >
                        {historyText.restore}
                      </button>
                    </div>
                  </>
                )}
              </div>
            )}
          </>
        )}
      </div>
    </section>
  );
}
