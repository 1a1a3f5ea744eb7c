/**
 * A short, human name for a browser from its User-Agent ("Firefox on
 * Windows"), for the Account screen's list of sessions. Substring checks
 * only, on at most the first 300 characters: no pattern to backtrack, and
 * no library to keep current for a label. Order matters: Edge and Opera
 * also say "Chrome", Chrome also says "Safari", Android also says "Linux".
 */
const BROWSERS: Array<[needle: string, name: string]> = [
  ["Edg/", "Edge"],
  ["EdgiOS/", "Edge"],
  ["EdgA/", "Edge"],
  ["OPR/", "Opera"],
  ["SamsungBrowser/", "Samsung Internet"],
  ["Firefox/", "Firefox"],
  ["FxiOS/", "Firefox"],
  ["CriOS/", "Chrome"],
  ["Chromium/", "Chromium"],
  ["Chrome/", "Chrome"],
  ["Safari/", "Safari"],
  ["curl/", "curl"],
  ["node", "a script"],
];

const SYSTEMS: Array<[needle: string, name: string]> = [
  ["iPhone", "iPhone"],
  ["iPad", "iPad"],
  ["Android", "Android"],
  ["CrOS", "ChromeOS"],
  ["Windows", "Windows"],
  ["Macintosh", "macOS"],
  ["Mac OS X", "macOS"],
  ["Linux", "Linux"],
];

export function summariseUserAgent(userAgent: string | null | undefined): string {
  if (!userAgent) return "Unknown browser";
  const head = userAgent.slice(0, 300);
  const browser = BROWSERS.find(([needle]) => head.includes(needle))?.[1];
  const system = SYSTEMS.find(([needle]) => head.includes(needle))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? (system ? `A browser on ${system}` : "Unknown browser");
}
