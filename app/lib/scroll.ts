/** Every section scroll stops this far above the section (docs/product/interface.md#section-scrolling), clearing the fixed navigation bar. */
const SCROLL_OFFSET_PX = 64;
/** On / or /home, a hash in the URL scrolls to its section after this delay (docs/product/interface.md#section-scrolling). */
const HASH_SCROLL_DELAY_MS = 100;

const LANDING_PATHS = new Set(["/", "/home"]);

function isLandingPath(pathname: string): boolean {
  return LANDING_PATHS.has(pathname);
}

function prefersReducedMotion(): boolean {
  return typeof window !== "undefined" && window.matchMedia?.("(prefers-reduced-motion: reduce)").matches === true;
}

/**
 * Scrolls smoothly to the element with this id, 64 px above it. With
 * `focus`, keyboard and screen-reader users land in the section too.
 */
export function scrollToSection(id: string, { focus = false }: { focus?: boolean } = {}): boolean {
  const element = document.getElementById(id);
  if (!element) return false;
  const top = element.getBoundingClientRect().top + window.scrollY - SCROLL_OFFSET_PX;
  window.scrollTo({ top: Math.max(0, top), behavior: prefersReducedMotion() ? "auto" : "smooth" });
  if (focus) {
    if (!element.hasAttribute("tabindex")) element.setAttribute("tabindex", "-1");
    element.focus({ preventScroll: true });
  }
  return true;
}

/**
 * Going to a landing-page section: on / or /home it scrolls there; on any
 * other page it loads /#id, and the landing page scrolls on arrival.
 */
export function goToSection(id: string): void {
  if (isLandingPath(window.location.pathname)) scrollToSection(id, { focus: true });
  else window.location.assign(`/#${id}`);
}

/**
 * On / or /home (docs/product/interface.md#section-scrolling), a hash in the URL scrolls smoothly to its section
 * after 100 ms, on arrival and whenever the hash changes. Returns a cleanup.
 */
export function scrollToHashSections(): () => void {
  let timer: number | undefined;
  const scrollToHash = () => {
    window.clearTimeout(timer);
    if (!isLandingPath(window.location.pathname) || window.location.hash.length < 2) return;
    const id = decodeURIComponent(window.location.hash.slice(1));
    timer = window.setTimeout(() => scrollToSection(id), HASH_SCROLL_DELAY_MS);
  };
  scrollToHash();
  window.addEventListener("hashchange", scrollToHash);
  return () => {
    window.clearTimeout(timer);
    window.removeEventListener("hashchange", scrollToHash);
  };
}
