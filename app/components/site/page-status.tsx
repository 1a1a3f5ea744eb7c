import { useEffect, useState } from "react";
import {
  focusTargetId,
  handOverFocus,
  isPlainClick,
  parseFocusAfter,
  takeFocusHandover,
  TRANSITION_ATTRIBUTES,
  type FocusAfter,
} from "~/lib/page-transition";

function focusOnArrival(target: FocusAfter) {
  const holder = document.getElementById(focusTargetId(target));
  // The article's title takes focus itself; a card, through its link.
  const element = target === "article" ? holder : holder?.querySelector<HTMLElement>("a[href]");
  if (!element) return;
  element.focus({ preventScroll: target === "article" });
  if (target !== "article") element.scrollIntoView({ block: "center" });
}

/** Session storage, where the browser allows it: the focus handover is a nicety, never a failure. */
function withSessionStorage<T>(act: (storage: Storage) => T): T | null {
  try {
    return act(window.sessionStorage);
  } catch {
    return null;
  }
}

/**
 * The blog's status line (loading text while articles load, docs/product/interface.md#public-blog). A link
 * or form with transition attributes (lib/page-transition.ts) shows its
 * loading text here while the browser fetches the next page, and on arrival
 * focus goes where it said: the new article's title after a card, Previous or
 * Next; the card of the article just read after 'Back to articles'. Focus
 * crosses the page load through lib/page-transition.ts's handover.
 */
export function PageStatus() {
  const [status, setStatus] = useState("");

  useEffect(() => {
    const target = withSessionStorage((storage) => takeFocusHandover(storage, new URL(window.location.href)));
    if (target) focusOnArrival(target);

    const begin = (element: HTMLElement, to: URL) => {
      const focus = parseFocusAfter(element.getAttribute(TRANSITION_ATTRIBUTES.focus));
      withSessionStorage((storage) => handOverFocus(storage, to, focus));
      setStatus(element.getAttribute(TRANSITION_ATTRIBUTES.loading) ?? "");
    };
    const onClick = (event: MouseEvent) => {
      if (!isPlainClick(event) || !(event.target instanceof Element)) return;
      const link = event.target.closest<HTMLAnchorElement>(`a[${TRANSITION_ATTRIBUTES.loading}]`);
      if (!link) return;
      const follow = link.getAttribute(TRANSITION_ATTRIBUTES.href);
      const to = new URL(follow ?? link.href, window.location.href);
      begin(link, to);
      if (follow) {
        event.preventDefault();
        window.location.assign(to.href);
      }
    };
    const onSubmit = (event: SubmitEvent) => {
      const form = event.target;
      if (
        event.defaultPrevented ||
        !(form instanceof HTMLFormElement) ||
        !form.hasAttribute(TRANSITION_ATTRIBUTES.loading)
      )
        return;
      const to = new URL(form.action);
      if (form.method !== "get") {
        begin(form, to);
        return;
      }
      // The browser would append an empty "?" for a form with no fields (Previous/Next on /blog/{slug}).
      to.search = new URLSearchParams(
        new FormData(form, event.submitter) as unknown as Record<string, string>,
      ).toString();
      begin(form, to);
      event.preventDefault();
      window.location.assign(to.href);
    };
    // Back to a page kept in the browser's cache: nothing is loading any more.
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setStatus("");
    };
    document.addEventListener("click", onClick);
    document.addEventListener("submit", onSubmit);
    window.addEventListener("pageshow", onPageShow);
    return () => {
      document.removeEventListener("click", onClick);
      document.removeEventListener("submit", onSubmit);
      window.removeEventListener("pageshow", onPageShow);
    };
  }, []);

  return (
    <p role="status" className={status ? "mb-6 font-medium text-brand-800" : "sr-only"}>
      {status}
    </p>
  );
}
