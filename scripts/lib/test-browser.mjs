import fs from "node:fs";

/**
 * Debian's Chromium, where the scripts find it (ADR 082). FULL_CHROMIUM is
 * the whole browser, as a visitor has it: Lighthouse runs in it.
 * testBrowser() is the one the browser tests drive: CHROMIUM_PATH, else the
 * headless shell (package chromium-headless-shell), else the full browser.
 * The shell is the same engine without the browser's window layer, what
 * Playwright itself runs headless tests in; it took a third less CPU for
 * the same tests.
 */
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
export const FULL_CHROMIUM = "/usr/bin/chromium";

export function testBrowser() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM;
}
