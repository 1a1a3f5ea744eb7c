import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Locator, type Page } from "@playwright/test";
import axe, { type Result } from "axe-core";
import { TEST_BACKEND } from "../support/backend";
import { E2E_ADMIN, startSite, type Site } from "../support/e2e-site";

export { expect };

/**
 * A test's details for one whose outcome cannot depend on the screen: an
 * animation's or a notice's timing, the keyboard, markup every screen
 * shares, server behaviour seen through a screen (conflicts, drafts kept
 * offline). It runs in the desktop project only (the phone project leaves
 * out the tag, playwright.config.ts), where timings are measured on the
 * lighter page; the phone keeps each screen's main path (docs/testing.md).
 */
export const DESKTOP = { tag: "@desktop" };

/**
 * Signs the page's browser in as the e2e administrator over the API, which
 * gives its context the session cookie (the sign-in form is smoke.spec.ts's
 * to test). `openAdmin`: then opens the admin's first screen.
 */
export async function signIn(page: Page, { openAdmin = false } = {}) {
  const response = await page.request.post("/api/auth/login", { data: E2E_ADMIN });
  expect(response.status()).toBe(200);
  if (!openAdmin) return;
  await page.goto("/admin");
  await expect(page.getByRole("heading", { level: 1, name: "Blog Admin" })).toBeVisible();
}

/** Resolves once the page's scripts have hydrated it (`<html data-hydrated>`, set by islands and admin pages alike). */
export async function hydrated(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
}

/**
 * Playwright's test, with a `page.goto` that also waits until the page is
 * hydrated, as a person's first click comes after it does. Pages reached by
 * a click are full page loads too: call `hydrated(page)` before relying on
 * their scripts. A test fails if the browser reported a CSP violation.
 */
export const test = base.extend<object, { backend: "sqlite" | "postgres"; site: Site }>({
  // The database the worker's site runs on: a project's option
  // (playwright.config.ts), TEST_DATABASE's by default.
  backend: [TEST_BACKEND, { scope: "worker", option: true }],
  // Each worker process has a site of its own: the built server on a new
  // database with the sample posts, on its own port (E2E_PORT + the worker's
  // slot). Workers run side by side without seeing each other's changes, and
  // a file never depends on what an earlier file left behind in another
  // worker (docs/testing.md).
  site: [
    async ({ backend }, use, workerInfo) => {
      const site = await startSite(workerInfo.parallelIndex, backend);
      await use(site);
      await site.stop();
    },
    { scope: "worker", timeout: 90_000 },
  ],
  baseURL: async ({ site }, use) => use(site.url),
  page: async ({ page, javaScriptEnabled }, use) => {
    const goto = page.goto.bind(page);
    page.goto = async (...args: Parameters<Page["goto"]>) => {
      const response = await goto(...args);
      if (javaScriptEnabled !== false && response?.headers()["content-type"]?.startsWith("text/html"))
        await hydrated(page);
      return response;
    };
    // Whatever a test does, the browser must not have refused a script or
    // style of ours under the Content-Security-Policy (ADR 024).
    const refused: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" && /Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    await use(page);
    expect(refused, "Content-Security-Policy violations").toEqual([]);
  },
});

/**
 * Expects a dialog open and ready for the keyboard: shown, with focus inside
 * it, as a keyboard user finds it. Radix attaches its Escape handler in the
 * same effects that move focus in, which may run after the dialog is painted:
 * an Escape sent between the two reached the page, not the dialog.
 */
export async function expectDialogReady(dialog: Locator) {
  await expect(dialog).toBeVisible();
  await expect.poll(() => dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
}

declare global {
  interface Window {
    axe: typeof axe;
  }
}

const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/**
 * Runs axe (WCAG 2.x A/AA and best practices) on the page as it is now;
 * expects 0 violations. Not in a project that repeats the desktop's pages on
 * another database: the markup is the same, and axe is a large share of a
 * browser test's time (ADR 058).
 *
 * axe runs in the page itself, put there once per document, and reports the
 * nodes of its violations alone (ADR 059). AxeBuilder's default, made for
 * pages with frames, injects axe again at every call, collects every passing
 * node's selector and HTML and merges them in a new blank page: 3 to 6 s a
 * run on the Pages editor's long form instead of under one. A page with
 * frames still goes through AxeBuilder, which checks inside them.
 */
export async function expectNoAxeViolations(page: Page) {
  let violations: Result[];
  if (page.frames().length > 1) {
    violations = (await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze()).violations;
  } else {
    if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axe.source);
    violations = await page.evaluate(
      async (tags) =>
        (await window.axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] }))
          .violations,
      AXE_TAGS,
    );
  }
  const summary = violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  expect(summary).toEqual([]);
}

/**
 * Saves a screenshot for a person to look at, as `<name>-<project>.png` in
 * SCREENSHOT_DIR; without it, takes none. A screenshot checks nothing, and
 * a full-page one costs about a second of a busy machine.
 */
export async function screenshotForReview(page: Page, name: string, { fullPage = true } = {}) {
  const dir = process.env.SCREENSHOT_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}-${test.info().project.name}.png`), fullPage });
}

let addressesGiven = 0;
/**
 * A client address of its own for a test that sends contact messages, so the
 * per-address throttle (5 an hour) counts each test apart. The server trusts
 * X-Forwarded-For from loopback. The address is made unique from the
 * project, the worker process and the call: an IPv6 /64 (what the throttle
 * counts) for each, so no two tests share one even on a shared server. (A
 * random start per worker once let the phone project reuse an address the
 * desktop project had throttled.)
 */
export async function useOwnClientAddress(page: Page): Promise<string> {
  const info = base.info();
  const project = info.config.projects.findIndex((candidate) => candidate.name === info.project.name);
  addressesGiven += 1;
  const network = (project * 256 + info.workerIndex).toString(16);
  const address = `2001:db8:${network}:${addressesGiven.toString(16)}::1`;
  await page.setExtraHTTPHeaders({ "X-Forwarded-For": address });
  return address;
}
