import { type Page } from "@playwright/test";
import { DESKTOP, expect, test } from "./fixtures";

/**
 * The public pages hydrate only their islands (ADR 018). Two seams checked in
 * the built pages: a control that needs JavaScript is inside an island (or
 * works without it), and hydration keeps the server's controls in place.
 */

async function publicPages(page: Page) {
  const [first] = (await (await page.request.get("/api/posts?limit=1")).json()) as Array<{ slug: string }>;
  // The newest article: its Previous button is disabled (docs/product/interface.md#in-place-article).
  return ["/", "/blog", `/blog/${first!.slug}`, "/about", "/privacy"];
}

// The pages' markup is the same on every screen.
test(
  "no dead buttons: every button is in an island or in a form that works without JavaScript",
  DESKTOP,
  async ({ page }) => {
    for (const path of await publicPages(page)) {
      await page.goto(path);
      const dead = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>("button, [role=button]")]
          .filter((control) => {
            if (control.closest("[data-island]")) return false;
            const form = control instanceof HTMLButtonElement ? control.form : control.closest("form");
            if (form?.hasAttribute("action")) return false;
            // Previous/Next at the ends of the list: a disabled submit button
            // in a GET form (docs/product/interface.md#in-place-article), inert by design, not by accident.
            return !(control instanceof HTMLButtonElement && control.disabled && form);
          })
          .map((control) => control.outerHTML.slice(0, 160)),
      );
      expect(dead, `buttons on ${path} that no script or form serves`).toEqual([]);
    }
  },
);

test("hydration keeps the server's controls: no island replaces its buttons or links", async ({ page }) => {
  // Records every button or link removed from the page, from its first byte.
  await page.addInitScript(() => {
    const removed: string[] = [];
    (window as unknown as { removedControls: string[] }).removedControls = removed;
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.removedNodes) {
          if (!(node instanceof Element)) continue;
          const controls = node.matches("button, a") ? [node] : [...node.querySelectorAll("button, a")];
          removed.push(...controls.map((control) => control.outerHTML.slice(0, 120)));
        }
    }).observe(document, { childList: true, subtree: true });
  });
  for (const path of await publicPages(page)) {
    await page.goto(path);
    // Anything that re-renders just after hydration (a late switch of implementation) has happened by now.
    await page.waitForTimeout(300);
    const removed = await page.evaluate(() => (window as unknown as { removedControls: string[] }).removedControls);
    expect(removed, `controls replaced on ${path}`).toEqual([]);
  }
});

test("the page paints before it asks for a script (ADR 031)", DESKTOP, async ({ page }) => {
  for (const path of await publicPages(page)) {
    await page.goto(path);
    const timing = await page.evaluate(() => {
      const paint = performance.getEntriesByName("first-contentful-paint")[0]?.startTime;
      const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
      const scripts = resources.filter((entry) => new URL(entry.name).pathname.endsWith(".js"));
      return {
        paint,
        firstScript: Math.min(...scripts.map((entry) => entry.startTime)),
        scripts: scripts.length,
        stylesheets: resources.filter((entry) => new URL(entry.name).pathname.endsWith(".css")).length,
      };
    });
    expect(timing.paint, `${path}: first contentful paint`).toBeDefined();
    expect(timing.scripts, `${path}: the islands loaded`).toBeGreaterThan(0);
    expect(timing.firstScript, `${path}: first script asked for after the paint`).toBeGreaterThanOrEqual(timing.paint!);
    // The one linked stylesheet, which the admin shares.
    expect(timing.stylesheets, `${path}: stylesheets fetched`).toBeLessThanOrEqual(1);
  }
});
