import { useState, useSyncExternalStore } from "react";
import { NO_INTRO_CLASS } from "./intro-script";
import { Logo } from "./logo";

/*
 * The landing page's splash (docs/product/interface.md#splash-and-fade-ins):
 * shown when a visitor arrives. The timings (the splash leaves at 3 s and is
 * gone at 4 s, the navigation fades in at 4.2 s, the content at 4.7 s) live
 * in app.css (.splash, .intro-nav, .intro-content) so they run from the first
 * paint, before any script; prefers-reduced-motion skips it.
 */

/** The class is set before the first paint and never changes: nothing to subscribe to. */
const subscribeToNothing = () => () => {};
const skipsIntro = () => document.documentElement.classList.contains(NO_INTRO_CLASS);
// The server cannot know; hydration starts from this and renders again with skipsIntro().
const skipsIntroOnServer = () => false;

export function Splash({ companyName }: { companyName: string }) {
  const skipped = useSyncExternalStore(subscribeToNothing, skipsIntro, skipsIntroOnServer);
  const [gone, setGone] = useState(false);
  if (skipped || gone) return null;
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
