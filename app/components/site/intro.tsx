import { useState } from "react";
import { Logo } from "./logo";

/**
 * The landing page's splash (SPEC §2, §9): shown on a page load only. The
 * timings live in app.css (.splash, .intro-nav, .intro-content) so they run
 * from the first paint, before any script; prefers-reduced-motion skips it.
 */
export const SPLASH_TRANSITION_MS = 3000;
export const SPLASH_GONE_MS = 4000;
export const NAV_FADE_MS = 4200;
export const CONTENT_FADE_MS = 4700;

let appHydrated = false;

/** Called once the app has hydrated: from then on, arriving at / is a client navigation. */
export function markAppHydrated() {
  appHydrated = true;
}

/** Whether this render of the landing page plays the intro (a full page load, not a client navigation). */
export function useIntro(): boolean {
  const [intro] = useState(() => !appHydrated);
  return intro;
}

export function Splash({ companyName }: { companyName: string }) {
  const [gone, setGone] = useState(false);
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
