/**
 * The History panel's state (ADR 065): the list of revisions, read when shown
 * and again when its key changes, and the one revision chosen, read when
 * chosen. A request that no longer matters is aborted.
 */
import { useEffect, useEffectEvent, useState } from "react";
import { detailOf, type RevisionItem, type Revisions } from "./document-kind";

interface ListState {
  /** The list key these items were read for; undefined: not read yet. */
  key?: string | number;
  items?: RevisionItem[];
  error?: string;
}

export function useRevisionList<R>(revisions: Revisions<R>, shown: boolean) {
  const { listKey } = revisions;
  const initial = revisions.restoreInto === "live" ? revisions.initial : undefined;
  const [state, setState] = useState<ListState>(() => (initial ? { key: listKey, items: initial } : {}));
  // The kind's calls change with every render of the editor; the effect runs for the key alone.
  const read = useEffectEvent((signal: AbortSignal) => revisions.list(signal));

  useEffect(() => {
    if (!shown || state.key === listKey) return;
    const controller = new AbortController();
    read(controller.signal).then(
      (items) => setState({ key: listKey, items }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        // A list shown before stays, with the reason it could not be read again.
        setState((before) => ({ key: listKey, items: before.items, error: detailOf(error) }));
      },
    );
    return () => controller.abort();
  }, [shown, listKey, state.key]);

  return { ...state, forget: () => setState({}) };
}

interface Chosen<R> {
  item: RevisionItem;
  revision?: R;
  error?: string;
}

export function useChosenRevision<R>(revisions: Revisions<R>) {
  const [chosen, setChosen] = useState<Chosen<R>>();
  const [listKey, setListKey] = useState(revisions.listKey);
  // A new list (a publish) answers another question: the comparison closes.
  if (listKey !== revisions.listKey) {
    setListKey(revisions.listKey);
    setChosen(undefined);
  }
  const load = useEffectEvent((id: string, signal: AbortSignal) => revisions.load(id, signal));
  const chosenId = chosen?.item.id;

  useEffect(() => {
    if (!chosenId) return;
    const controller = new AbortController();
    load(chosenId, controller.signal).then(
      (revision) => setChosen((c) => (c?.item.id === chosenId ? { ...c, revision } : c)),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setChosen((c) => (c?.item.id === chosenId ? { ...c, error: detailOf(error) } : c));
      },
    );
    return () => controller.abort();
  }, [chosenId]);

  return {
    chosen,
    /** Chooses an item, or lets it go when it is the one chosen. */
    toggle: (item: RevisionItem) => setChosen(chosenId === item.id ? undefined : { item }),
    clear: () => setChosen(undefined),
  };
}
