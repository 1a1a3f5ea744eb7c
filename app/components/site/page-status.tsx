import { useEffect, useState } from "react";
import { isPlainClick, TRANSITION_ATTRIBUTES, type FocusAfter } from "~/lib/page-transition";

/** Session storage key: where focus goes when the next page arrives. */
const FOCUS_KEY = "ojai:focus-after";

function focusOnArrival(target: FocusAfter) {
  const element =
    target === "article"
      ? document.getElementById("article-title")
      : document.querySelector<HTMLElement>(`#post-${CSS.escape(target.slice("card:".length))} h2 a`);
  if (!element) return;
  element.focus({ preventScroll: target === "article" });
  if (target !== "article") element.scrollIntoView({ block: "center" });
}

/**
 * The blog's status line (SPEC §2: loading text while articles load). A link
 * or form with transition attributes (lib/page-transition.ts) shows its
 * loading text here while the browser fetches the next page, and on arrival
 * focus goes where it said: the new article's title after a card, Previous or
 * Next; the card of the article just read after 'Back to articles'.
 */
export function PageStatus() {
  const [status, setStatus] = useState("");

  useEffect(() => {
    const target = sessionStorage.getItem(FOCUS_KEY) as FocusAfter | null;
    sessionStorage.removeItem(FOCUS_KEY);
    if (target) focusOnArrival(target);

    const begin = (element: HTMLElement) => {
      const focus = element.getAttribute(TRANSITION_ATTRIBUTES.focus);
      if (focus) sessionStorage.setItem(FOCUS_KEY, focus);
      else sessionStorage.removeItem(FOCUS_KEY);
      setStatus(element.getAttribute(TRANSITION_ATTRIBUTES.loading) ?? "");
    };
    const onClick = (event: MouseEvent) => {
      if (!isPlainClick(event) || !(event.target instanceof Element)) return;
      const link = event.target.closest<HTMLAnchorElement>(`a[${TRANSITION_ATTRIBUTES.loading}]`);
      if (!link) return;
      begin(link);
      const href = link.getAttribute(TRANSITION_ATTRIBUTES.href);
      if (href) {
        event.preventDefault();
        window.location.assign(href);
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
      begin(form);
      if (form.method !== "get") return;
      // The browser would append an empty "?" for a form with no fields (Previous/Next on /blog/{slug}).
      const target = new URL(form.action);
      target.search = new URLSearchParams(
        new FormData(form, event.submitter) as unknown as Record<string, string>,
      ).toString();
      event.preventDefault();
      window.location.assign(target.href);
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
