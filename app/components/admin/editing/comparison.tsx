/**
 * A revision compared with what is there now (ADR 043, ADR 065): each changed
 * text word by word, short fields as before and after. Insertions and
 * deletions are shown by more than colour: <ins>/<del>, a line through, and
 * words for screen readers.
 */
import { type ChangeObject, diffLines, diffWords } from "diff";
import type { FormRevisionTexts, LiveRevisionTexts } from "~/content/revisions";
import type { FieldChange } from "./document-kind";

/** A word diff of long texts stops after this long and falls back to lines (jsdiff's timeout). */
const WORD_DIFF_MS = 150;

type Texts = FormRevisionTexts | LiveRevisionTexts;

function textDiff(now: string, then: string): ChangeObject<string>[] {
  return diffWords(now, then, { timeout: WORD_DIFF_MS }) ?? diffLines(now, then);
}

const insClass = "bg-green-100 text-green-950 underline decoration-2 underline-offset-2";
const delClass = "bg-red-100 text-red-950 line-through decoration-2";

function Changes({ change, number, texts }: { change: FieldChange; number: number; texts: Texts }) {
  return (
    <p className="whitespace-pre-wrap break-words rounded-md border border-neutral-200 bg-neutral-50 p-3 font-mono text-sm leading-relaxed">
      {textDiff(change.now, change.then).map((part, index) =>
        part.added ? (
          <ins key={index} className={`mx-px ${insClass}`}>
            <span className="sr-only">{`[${texts.onlyInVersion(number)}] `}</span>
            {part.value}
            <span className="sr-only"> [end]</span>
          </ins>
        ) : part.removed ? (
          <del key={index} className={`mx-px ${delClass}`}>
            <span className="sr-only">{`[${texts.onlyNow}] `}</span>
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

function Legend({ number, texts }: { number: number; texts: Texts }) {
  const { legend } = texts;
  if (typeof legend === "string") return <p className="text-sm text-neutral-700">{legend}</p>;
  const [versionSample, versionRest] = legend.version(number);
  return (
    <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-neutral-700">
      <span>
        <ins className={insClass}>{versionSample}</ins>
        {versionRest}
      </span>
      <span>
        <del className={delClass}>{legend.now[0]}</del>
        {legend.now[1]}
      </span>
    </p>
  );
}

function ShortChanges({ changes, number, texts }: { changes: FieldChange[]; number: number; texts: Texts }) {
  return (
    <dl className="mt-1 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
      {changes.map((change) => (
        <div key={change.name} className="contents">
          <dt className="font-medium text-neutral-800">{change.name}</dt>
          <dd className="break-words">
            <del className="bg-red-100 line-through">
              <span className="sr-only">{`${texts.onlyNow}: `}</span>
              {change.now}
            </del>{" "}
            <span aria-hidden="true">→</span>{" "}
            <ins className="bg-green-100 underline">
              <span className="sr-only">{`${texts.onlyInVersion(number)}: `}</span>
              {change.then}
            </ins>
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function Comparison({ changes, number, texts }: { changes: FieldChange[]; number: number; texts: Texts }) {
  if (changes.length === 0) return <p className="text-sm text-neutral-700">{texts.same}</p>;
  const long = changes.filter((change) => !change.short);
  const short = changes.filter((change) => change.short);
  return (
    <div className="flex flex-col gap-3">
      <Legend number={number} texts={texts} />
      <dl className="flex flex-col gap-3">
        {long.map((change) => (
          <div key={change.name}>
            <dt className="text-sm font-semibold text-neutral-800">{change.name}</dt>
            <dd>
              <Changes change={change} number={number} texts={texts} />
            </dd>
          </div>
        ))}
        {short.length > 0 && (
          <div>
            <dt className="text-sm font-semibold text-neutral-800">{texts.otherFields}</dt>
            <dd>
              <ShortChanges changes={short} number={number} texts={texts} />
            </dd>
          </div>
        )}
      </dl>
    </div>
  );
}
