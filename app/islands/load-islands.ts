/**
 * How a public page starts its islands (ADR 031): one inline script at the end
 * of <body>, allowed by its hash in the Content-Security-Policy like the
 * landing page's (server/security-headers.ts). It is a constant, so its hash
 * never changes; the file names it loads are in its data attributes, which the
 * hash does not cover.
 *
 * The page is whole and styled without JavaScript (HTML rendered on the
 * server, its one stylesheet linked), so nothing needs the scripts to paint it. Asked
 * for while the page is parsed (as <link rel="modulepreload"> did), ~80 KB of
 * them share a slow phone's connection with the page and arrive in the same
 * breath as its first paint. The loader waits until the page is on screen,
 * then preloads the entry's chunks and imports the entry: the content paints
 * first, and hydration follows.
 */

/** The data attributes of the loader's <script> element, read by LOAD_ISLANDS_SCRIPT. */
export interface IslandsLoaderData {
  /** Module scripts to import, in order: the islands entry (after React Refresh's preamble in development). */
  "data-modules": string;
  /** Chunks the entry imports, preloaded together with it. */
  "data-preload": string;
  /** Chunks preloaded only where `data-hover-media` matches (the tooltips). */
  "data-hover-preload": string;
  "data-hover-media": string;
}

export function islandsLoaderData(assets: {
  modules: string[];
  preload: string[];
  hoverPreload: string[];
  hoverMedia: string;
}): IslandsLoaderData {
  return {
    "data-modules": assets.modules.join(" "),
    "data-preload": assets.preload.join(" "),
    "data-hover-preload": assets.hoverPreload.join(" "),
    "data-hover-media": assets.hoverMedia,
  };
}

/**
 * "After the page has painted" is the browser's first-contentful-paint entry,
 * reported once that frame is on screen (a frame the main thread has drawn
 * can reach the screen tens of milliseconds later on a busy phone, and
 * requestAnimationFrame only knows the former). Where paint entries are not
 * reported, the task after the next frame. A tab opened in the background
 * paints when it is first shown; if no paint is ever reported, the islands
 * load after 3 s all the same, so the page never stays inert.
 */
export const LOAD_ISLANDS_SCRIPT = `(function(){var d=document.currentScript.dataset,started=false;function list(s){return s?s.split(" "):[]}function load(){if(started)return;started=true;var hrefs=list(d.preload);if(d.hoverMedia&&matchMedia(d.hoverMedia).matches)hrefs=hrefs.concat(list(d.hoverPreload));hrefs.forEach(function(href){var link=document.createElement("link");link.rel="modulepreload";link.href=href;document.head.appendChild(link)});list(d.modules).reduce(function(done,src){return done.then(function(){return import(src)})},Promise.resolve())}function soon(){setTimeout(load)}var types=window.PerformanceObserver&&PerformanceObserver.supportedEntryTypes||[];if(types.indexOf("paint")>=0)new PerformanceObserver(function(entries,observer){if(entries.getEntriesByName("first-contentful-paint").length){observer.disconnect();soon()}}).observe({type:"paint",buffered:true});else requestAnimationFrame(soon);setTimeout(load,3000)})()`;
