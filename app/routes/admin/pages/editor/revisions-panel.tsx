/**
 * The page's published versions (ADR 053): who published each and when, its
 * changes against the current version in words, and Restore, which publishes
 * it again (the current version stays in the list).
 */
import { diffWords, type ChangeObject } from "diff";
import { useEffect, useState } from "react";
import { shortTime } from "~/content/revisions";
import { pagesText } from "~/content/pages";
import type { ContentRevisionSummary } from "~/server/site-content/index.server";
import * as api from "./content-api";
import type { Confirmation } from "./confirmation";
import { itemLabelOf, labelOf } from "./form-model";
import type { PageEditing } from "./use-page-editing";

const text = pagesText.revisions;

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

interface Change {
  field: string;
  parts: ChangeObject<string>[];
}

/** What changes from `from` (a kept version) to `to` (the current one), field by field. */
function changesBetween(from: unknown, to: unknown): Change[] {
  const before = flatten(from);
  const after = flatten(to);
  const fields = [...new Set([...before.keys(), ...after.keys()])];
  return fields
    .filter((field) => before.get(field) !== after.get(field))
    .map((field) => ({ field, parts: diffWords(before.get(field) ?? "", after.get(field) ?? "") }));
}

function Changes({ changes }: { changes: Change[] }) {
  if (changes.length === 0) return <p className="text-sm text-neutral-700">{text.noChanges}</p>;
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm text-neutral-700">{text.changesIntro}</p>
      <dl className="flex flex-col gap-2 text-sm">
        {changes.map((change) => (
          <div key={change.field} className="rounded-md border border-neutral-200 bg-neutral-50 p-2">
            <dt className="font-semibold">{change.field}</dt>
            <dd className="break-words">
              {change.parts.map((part, index) =>
                part.added ? (
                  <ins key={index} className="bg-green-100 text-green-950 underline decoration-2">
                    {part.value}
                  </ins>
                ) : part.removed ? (
                  <del key={index} className="bg-red-100 text-red-950 line-through">
                    {part.value}
                  </del>
                ) : (
                  <span key={index}>{part.value}</span>
                ),
              )}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

export function RevisionsPanel({
  editing,
  initial,
  onConfirm,
  onNotice,
}: {
  editing: PageEditing;
  initial: ContentRevisionSummary[];
  onConfirm: (confirmation: Confirmation) => void;
  onNotice: (text: string | undefined) => void;
}) {
  const { name, published } = editing;
  const [revisions, setRevisions] = useState(initial);
  const [open, setOpen] = useState<{ id: string; changes: Change[] }>();

  // A publish (here or a restore) adds a version: read the list again.
  useEffect(() => {
    if (published.version === (initial[0]?.version ?? 0)) return;
    api.fetchRevisions(name).then(setRevisions, () => undefined);
  }, [name, published.version, initial]);

  async function toggle(id: string) {
    if (open?.id === id) return setOpen(undefined);
    const revision = await api.fetchRevision(name, id);
    setOpen({ id, changes: changesBetween(published.document, revision.document) });
  }

  async function restore(id: string, version: number) {
    const revision = await api.fetchRevision(name, id);
    if (await editing.publish(revision.document)) {
      setOpen(undefined);
      onNotice(pagesText.restored(version));
    }
  }

  return (
    <section aria-labelledby="page-history" className="mt-8 rounded-lg border border-neutral-200 bg-white p-5">
      <h2 id="page-history" className="text-xl font-semibold">
        {pagesText.history}
      </h2>
      <p className="mt-1 text-sm text-neutral-700">{text.heading}</p>
      <ol className="mt-4 flex flex-col gap-3">
        {revisions.map((revision) => {
          const current = revision.version === published.version;
          const title = revision.version === 0 ? text.originalVersion : text.version(revision.version);
          return (
            <li key={revision.id} className="flex flex-col gap-2 border-b border-neutral-200 pb-3 last:border-b-0">
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <span className="font-semibold">{title}</span>
                <span className="text-sm text-neutral-700">
                  {/* The original copy was never published by anyone: no time or name. */}
                  {revision.version === 0 ? "" : `${shortTime(revision.publishedAt)} ${text.by(revision.publishedBy)}`}
                </span>
                {current && (
                  <span className="rounded-full bg-brand-100 px-2 py-0.5 text-sm font-medium text-brand-900">
                    {text.current}
                  </span>
                )}
              </div>
              {!current && (
                <div className="flex flex-wrap gap-2">
                  <button
                    type="button"
                    aria-expanded={open?.id === revision.id}
                    aria-label={`${open?.id === revision.id ? text.hideChanges : text.showChanges}: ${title}`}
                    onClick={() => void toggle(revision.id)}
                    className="min-h-9 rounded-md border border-neutral-400 px-3 py-1 text-sm font-medium hover:bg-neutral-100"
                  >
                    {open?.id === revision.id ? text.hideChanges : text.showChanges}
                  </button>
                  <button
                    type="button"
                    onClick={() =>
                      onConfirm({
                        title: `${text.restore}: ${title}`,
                        description: text.restoreConfirm(revision.version),
                        confirm: text.restore,
                        run: () => void restore(revision.id, revision.version),
                      })
                    }
                    aria-label={`${text.restore}: ${title}`}
                    className="min-h-9 rounded-md border border-neutral-400 px-3 py-1 text-sm font-medium hover:bg-neutral-100"
                  >
                    {text.restore}
                  </button>
                </div>
              )}
              {open?.id === revision.id && <Changes changes={open.changes} />}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
