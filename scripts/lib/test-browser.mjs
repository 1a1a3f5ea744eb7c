import fs from "node:fs";

/**
 * The Chromium the browser tests drive (ADR 082): CHROMIUM_PATH, else
 * Debian's Chromium in its headless shell (package chromium-headless-shell),
 * else Debian's full Chromium. The shell is the same engine without the
 * browser's window layer, what Playwright itself runs headless tests in; it
 * took a third less CPU for the same tests. Lighthouse and screenshots keep
 * the full browser, as a person has.
 */
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
export const FULL_CHROMIUM = "/usr/bin/chromium";

export function testBrowser() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM;
}
