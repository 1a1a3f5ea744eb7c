/**
 * The Pages editor's state (ADR 053): the document in the form, its checks,
 * the autosaved draft (only a valid document is kept, 700 ms after the last
 * change), publishing, discarding and restoring. A draft or publish refused
 * with 409 (another tab or administrator) stops autosaving and says so.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { parseContent, type ContentDocument, type ContentName } from "~/lib/site-content";
import * as api from "./content-api";
import { setAt, type Path } from "./form-model";

export interface EditorData {
  name: ContentName;
  published: { document: ContentDocument; version: number; publishedAt: string | null; publishedBy: string | null };
  draft: { document: ContentDocument; baseVersion: number; draftVersion: number; savedAt: string } | null;
}

export type Status =
  | { kind: "published" }
  | { kind: "editing" }
  | { kind: "saving" }
  | { kind: "saved"; at: string }
  | { kind: "invalid" }
  | { kind: "conflict" }
  | { kind: "failed"; detail: string };

const AUTOSAVE_MS = 700;

function issuesOf(name: ContentName, document: unknown): Map<string, string> {
  const parsed = parseContent(name, document);
  const issues = new Map<string, string>();
  if (parsed.ok) return issues;
  for (const issue of parsed.issues) {
    // "media.packages[1].price must not be empty": the field shows "must not be empty" beside its label.
    if (!issues.has(issue.field)) issues.set(issue.field, issue.message.slice(issue.field.length + 1));
  }
  return issues;
}

export function usePageEditing(initial: EditorData) {
  const { name } = initial;
  const [document, setDocument] = useState<ContentDocument>(initial.draft?.document ?? initial.published.document);
  const [published, setPublished] = useState(initial.published);
  const [draft, setDraft] = useState(initial.draft && { ...initial.draft, document: undefined });
  // What the server holds of the form now (the draft or the published page): no autosave of it.
  const [kept, setKept] = useState<ContentDocument>(document);
  const [server, setServer] = useState<Status>(
    initial.draft ? { kind: "saved", at: initial.draft.savedAt } : { kind: "published" },
  );
  const issues = useMemo(() => issuesOf(name, document), [name, document]);

  // The latest values for the calls below, which finish after renders.
  const latest = useRef({ draft, published, kept, stopped: false });
  useEffect(() => {
    Object.assign(latest.current, { draft, published, kept });
  });
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const inFlight = useRef<Promise<void>>(Promise.resolve());

  const update = useCallback((path: Path, value: unknown) => setDocument((d) => setAt(d, path, value)), []);

  const refused = useCallback((error: unknown) => {
    const failure = error as api.ContentApiFailure;
    if (failure.conflict) {
      latest.current.stopped = true;
      setServer({ kind: "conflict" });
    } else setServer({ kind: "failed", detail: failure.detail });
  }, []);

  const saveNow = useCallback(
    (doc: ContentDocument) => {
      const run = async () => {
        const { draft: current, published: page, stopped } = latest.current;
        if (stopped || doc === latest.current.kept) return;
        setServer({ kind: "saving" });
        try {
          const saved = await api.saveDraft(name, {
            document: doc,
            baseVersion: current?.baseVersion ?? page.version,
            overDraftVersion: current?.draftVersion ?? 0,
          });
          const meta = { ...saved, document: undefined };
          Object.assign(latest.current, { kept: doc, draft: meta });
          setKept(doc);
          setDraft(meta);
          setServer({ kind: "saved", at: saved.savedAt });
        } catch (error) {
          refused(error);
        }
      };
      inFlight.current = inFlight.current.then(run);
      return inFlight.current;
    },
    [name, refused],
  );

  useEffect(() => {
    if (latest.current.stopped || document === kept || issues.size > 0) return;
    timer.current = setTimeout(() => void saveNow(document), AUTOSAVE_MS);
    return () => clearTimeout(timer.current);
  }, [document, kept, issues, saveNow]);

  /** The form kept as the draft now (before a preview or a share link). */
  const flush = useCallback(async () => {
    clearTimeout(timer.current);
    if (issues.size === 0) await saveNow(document);
    await inFlight.current;
  }, [document, issues, saveNow]);

  /** Publishes `doc` (the form, or a restored version) over the version the draft began from. */
  const publish = useCallback(
    async (doc: ContentDocument = document): Promise<boolean> => {
      clearTimeout(timer.current);
      await inFlight.current;
      if (!parseContent(name, doc).ok || latest.current.stopped) return false;
      const { draft: current, published: page } = latest.current;
      try {
        const version = await api.publish(name, doc, current?.baseVersion ?? page.version);
        const now = { document: doc, version, publishedAt: new Date().toISOString(), publishedBy: null };
        Object.assign(latest.current, { kept: doc, draft: null, published: now });
        setKept(doc);
        setDocument(doc);
        setDraft(null);
        setPublished(now);
        setServer({ kind: "published" });
        return true;
      } catch (error) {
        refused(error);
        return false;
      }
    },
    [document, name, refused],
  );

  const discard = useCallback(async () => {
    clearTimeout(timer.current);
    await inFlight.current;
    try {
      await api.discardDraft(name);
      const page = latest.current.published.document;
      Object.assign(latest.current, { kept: page, draft: null });
      setKept(page);
      setDocument(page);
      setDraft(null);
      setServer({ kind: "published" });
    } catch (error) {
      refused(error);
    }
  }, [name, refused]);

  // Unsaved changes say where they stand; otherwise the server's last answer.
  const dirty = document !== kept && server.kind !== "conflict" && server.kind !== "saving";
  const status: Status = dirty ? (issues.size > 0 ? { kind: "invalid" } : { kind: "editing" }) : server;

  return { name, document, update, issues, status, draft, published, flush, publish, discard };
}

export type PageEditing = ReturnType<typeof usePageEditing>;
