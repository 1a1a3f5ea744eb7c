import { useEffect, useState } from "react";
import { Logo } from "./logo";

/**
 * The landing page's splash (SPEC §2, §9): shown when a visitor arrives. The
 * timings live in app.css (.splash, .intro-nav, .intro-content) so they run
 * from the first paint, before any script; prefers-reduced-motion skips it.
 */
export const SPLASH_TRANSITION_MS = 3000;
export const SPLASH_GONE_MS = 4000;
export const NAV_FADE_MS = 4200;
export const CONTENT_FADE_MS = 4700;

/** On <html>: this page load skips the intro (app.css). */
export const NO_INTRO_CLASS = "no-intro";

/**
 * Runs inline in the <head> of the landing page, before the first paint: a
 * visitor coming from another page of this site (the logo, HOME, a section
 * link) is already here and does not sit through the splash again; arriving
 * from elsewhere, or reloading, plays it.
 */
export const SKIP_INTRO_SCRIPT = `try{var r=document.referrer,n=performance.getEntriesByType("navigation")[0];if(r&&new URL(r).origin===location.origin&&!(n&&n.type==="reload"))document.documentElement.classList.add("${NO_INTRO_CLASS}")}catch(e){}`;

export function Splash({ companyName }: { companyName: string }) {
  const [gone, setGone] = useState(false);
  useEffect(() => {
    if (document.documentElement.classList.contains(NO_INTRO_CLASS)) setGone(true);
  }, []);
  if (gone) return null;
  return (
    <div
      className="splash"
      data-testid="splash"
      aria-hidden="true"
      onAnimationEnd={(event) => {
        if (event.target === event.currentTarget) setGone(true);
      }}
    >
      <div className="splash-logo flex flex-col items-center gap-4 text-white">
        <Logo className="h-20 w-20" />
        <span className="text-2xl font-semibold tracking-tight">{companyName}</span>
      </div>
    </div>
  );
}
