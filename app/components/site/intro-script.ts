/**
 * The landing page's one inline script, kept apart from the Splash component
 * so the server can hash it for the Content-Security-Policy (ADR 024) without
 * loading React.
 */

/** On <html>: this page load skips the intro (app.css). */
export const NO_INTRO_CLASS = "no-intro";

/**
 * Runs inline in the <head> of the landing page, before the first paint: a
 * visitor coming from another page of this site (the logo, HOME, a section
 * link) is already here and does not sit through the splash again; arriving
 * from elsewhere, or reloading, plays it.
 */
export const SKIP_INTRO_SCRIPT = `try{var r=document.referrer,n=performance.getEntriesByType("navigation")[0];if(r&&new URL(r).origin===location.origin&&!(n&&n.type==="reload"))document.documentElement.classList.add("${NO_INTRO_CLASS}")}catch(e){}`;
