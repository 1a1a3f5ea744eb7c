import { useEffect, useRef, useState } from "react";
import { ApiFailure, EditConflict } from "../admin-api";
import { type PostDraft, sameDraft } from "../post-draft";
import { type Autosave, deleteAutosave, fetchAutosave, putAutosave } from "./revisions-api";

/**
 * Autosave (issue 18, ADR 043). Every change is written to this browser's
 * localStorage at once; for a post that exists, the draft also goes to the
 * server AUTOSAVE_DELAY_MS after typing stops, one request at a time. Neither
 * changes the post: only Save does.
 */
const AUTOSAVE_DELAY_MS = 3000;
const LOCAL_PREFIX = "ojai:post-draft:";
/** The server's bound on a post's text (MAX_POST_TEXT in post-input.server.ts). */
const MAX_POST_TEXT_LENGTH = 50_000;
/**
 * One local draft per administrator (`owner`, their e-mail) and post; a new
 * post has no id yet: one for "the new post". Another administrator signing
 * in on the same browser is not offered it.
 */
const localKey = (owner: string, postId: string | undefined) => `${LOCAL_PREFIX}${owner}:${postId ?? "new"}`;

/** A draft as kept in localStorage. */
export interface LocalDraft {
  draft: PostDraft;
  savedAt: string;
  /** The post's updatedAt when the editor opened it. */
  baseUpdatedAt?: string;
}

function readLocalDraft(owner: string, postId: string | undefined): LocalDraft | undefined {
  try {
    const raw = window.localStorage.getItem(localKey(owner, postId));
    if (!raw || raw.length > 4 * MAX_POST_TEXT_LENGTH) return undefined;
    const value = JSON.parse(raw) as LocalDraft;
    return value && typeof value.savedAt === "string" && typeof value.draft?.content === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

function writeLocalDraft(owner: string, postId: string | undefined, value: LocalDraft) {
  try {
    window.localStorage.setItem(localKey(owner, postId), JSON.stringify(value));
  } catch {
    // Storage full or refused (private mode): the server copy is all there is.
  }
}

/** After a save or a discard: this browser's draft of the post (and of "the new post") goes. */
export function clearLocalDraft(owner: string, postId: string | undefined) {
  try {
    window.localStorage.removeItem(localKey(owner, postId));
  } catch {
    // nothing kept
  }
}

export type AutosaveStatus =
  | { kind: "idle" }
  | { kind: "local" }
  | { kind: "sending" }
  | { kind: "server"; at: string }
  | { kind: "offline" }
  | { kind: "stale"; updatedAt: string }
  | { kind: "failed"; detail: string };

/** A draft from the server as the editor holds it. */
export function draftFromAutosave(saved: Autosave, fallback: PostDraft): PostDraft {
  return {
    id: saved.postId,
    title: saved.title,
    slug: saved.slug,
    excerpt: saved.excerpt,
    content: saved.content,
    category: saved.category,
    author: saved.author ?? fallback.author,
    publishDate: saved.publishDate ?? fallback.publishDate,
    readTime: saved.readTime,
    published: saved.published,
    headerImage: saved.headerImage,
    metaTitle: saved.metaTitle,
    metaDescription: saved.metaDescription,
    headerImageAlt: saved.headerImageAlt,
    noindex: saved.noindex,
    emailSubscribers: saved.emailSubscribers,
  };
}

/** The text fields a form may hold as "" where the stored post has null: compared alike. */
function comparable(draft: PostDraft): PostDraft {
  return {
    ...draft,
    headerImage: draft.headerImage || null,
    metaTitle: draft.metaTitle?.trim() || null,
    metaDescription: draft.metaDescription?.trim() || null,
    headerImageAlt: draft.headerImageAlt?.trim() || null,
  };
}

export function differs(a: PostDraft, b: PostDraft): boolean {
  return !sameDraft(comparable(a), comparable(b));
}

/** Unsaved text found when the editor opens: newer than the stored post and different from it. */
export interface RestoreOffer {
  draft: PostDraft;
  savedAt: string;
  where: "device" | "server";
  /**
   * The post's updatedAt the draft was made from. Restored, it becomes the
   * editor's base: a draft made from a version someone has since replaced
   * meets the conflict message on Save instead of silently undoing theirs.
   */
  base?: string;
  /** Made from an earlier version than the one opened: someone saved the post since. */
  earlier: boolean;
}

/**
 * Looks for a draft to offer when the editor opens: this browser's and (for a
 * post that exists) the server's, the newer of those that differ from the
 * stored post. One made from an earlier version than the one opened (someone
 * saved since) is offered too, saying so: nothing typed is dropped unasked,
 * and restored with its own base it meets the conflict message on Save.
 */
export function useRestoreOffer(opened: PostDraft, baseUpdatedAt: string | undefined, owner: string) {
  const [offer, setOffer] = useState<RestoreOffer>();
  const postId = opened.id;
  // The draft and the base as opened: the editor is mounted anew for each opening.
  const initial = useRef(opened);
  const openedBase = useRef(baseUpdatedAt);
  useEffect(() => {
    const controller = new AbortController();
    const base = openedBase.current;
    const earlier = (draftBase: string | undefined) =>
      base !== undefined && draftBase !== undefined && draftBase < base;
    const candidates: RestoreOffer[] = [];
    const local = readLocalDraft(owner, postId);
    if (local && differs(local.draft, initial.current)) {
      candidates.push({
        draft: { ...local.draft, id: postId },
        savedAt: local.savedAt,
        where: "device",
        base: local.baseUpdatedAt,
        earlier: earlier(local.baseUpdatedAt),
      });
    }
    const choose = () => {
      candidates.sort((a, b) => (a.savedAt < b.savedAt ? 1 : -1));
      if (candidates[0]) setOffer(candidates[0]);
    };
    if (!postId) {
      choose();
      return;
    }
    fetchAutosave(postId, controller.signal).then(
      (saved) => {
        if (saved) {
          const draft = draftFromAutosave(saved, initial.current);
          if (differs(draft, initial.current)) {
            const { savedAt, baseUpdatedAt: draftBase } = saved;
            candidates.push({ draft, savedAt, where: "server", base: draftBase, earlier: earlier(draftBase) });
          }
        }
        choose();
      },
      () => {
        // Offline or refused: this browser's draft alone.
        if (!controller.signal.aborted) choose();
      },
    );
    return () => controller.abort();
  }, [postId, owner]);

  return {
    offer,
    /** The offer is answered: it goes, and with "discard" the drafts go too. */
    settle: (discard: boolean) => {
      setOffer(undefined);
      if (discard) {
        clearLocalDraft(owner, postId);
        if (postId) void deleteAutosave(postId).catch(() => undefined);
      }
    },
  };
}

/**
 * Keeps `draft` while it differs from what was opened: in localStorage at
 * once, on the server after a pause (existing posts only). Answers the status
 * to show.
 */
export function useAutosave(draft: PostDraft, baseUpdatedAt: string | undefined, owner: string): AutosaveStatus {
  const [status, setStatus] = useState<AutosaveStatus>({ kind: "idle" });
  // The draft as opened (the editor is mounted anew for each opening), and the one last rendered.
  const [initial] = useState(draft);
  const [seen, setSeen] = useState(draft);
  if (seen !== draft) {
    // A change: kept on this device at once (by the effect below).
    setSeen(draft);
    if (differs(draft, initial)) {
      const offline = typeof navigator !== "undefined" && navigator.onLine === false;
      setStatus((s) => (s.kind === "stale" ? s : { kind: offline ? "offline" : "local" }));
    }
  }
  const latest = useRef(draft);
  // The draft last kept on the server, whether a request is out, and whether another is due after it.
  const sent = useRef<PostDraft>(draft);
  const inFlight = useRef(false);
  const again = useRef(false);
  const base = useRef(baseUpdatedAt);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const mounted = useRef(true);

  const send = useRef(async () => {
    const current = latest.current;
    const id = current.id;
    const since = base.current;
    if (!id || since === undefined || !differs(current, sent.current)) return;
    if (inFlight.current) {
      again.current = true;
      return;
    }
    // navigator.onLine is only a hint: a browser on a network with no way
    // out (a site on an intranet, or on loopback) says offline while the
    // site answers. The request decides; a failed one shows "offline".
    // The server takes at most this much text; a longer draft is kept on this device alone.
    if (current.content.length > MAX_POST_TEXT_LENGTH) return;
    inFlight.current = true;
    setStatus({ kind: "sending" });
    try {
      const saved = await putAutosave({ ...current, id }, since);
      sent.current = current;
      if (mounted.current) setStatus({ kind: "server", at: saved.savedAt });
    } catch (error) {
      if (!mounted.current) return;
      if (error instanceof EditConflict) setStatus({ kind: "stale", updatedAt: error.updatedAt });
      else if (error instanceof ApiFailure) setStatus({ kind: "failed", detail: error.detail });
      else setStatus({ kind: "offline" });
    } finally {
      inFlight.current = false;
      if (again.current && mounted.current) {
        again.current = false;
        void send.current();
      }
    }
  });

  useEffect(() => {
    latest.current = draft;
    base.current = baseUpdatedAt;
    if (!differs(draft, initial)) return;
    writeLocalDraft(owner, draft.id, { draft, savedAt: new Date().toISOString(), baseUpdatedAt });
    if (!draft.id) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void send.current(), AUTOSAVE_DELAY_MS);
  }, [draft, baseUpdatedAt, initial, owner]);

  useEffect(() => {
    mounted.current = true;
    // Back online: what was kept on this device goes to the server.
    const online = () => void send.current();
    const offline = () => setStatus((s) => (s.kind === "idle" ? s : { kind: "offline" }));
    window.addEventListener("online", online);
    window.addEventListener("offline", offline);
    return () => {
      mounted.current = false;
      clearTimeout(timer.current);
      window.removeEventListener("online", online);
      window.removeEventListener("offline", offline);
    };
  }, []);

  return status;
}
