import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/**
 * The public pages hydrate only their islands (ADR 018): a control that
 * needs JavaScript must be inside an island, or work without it.
 */

async function publicPages(page: Page) {
  const [first] = (await (await page.request.get("/api/posts?limit=1")).json()) as Array<{ slug: string }>;
  // The newest article: its Previous button is disabled (SPEC §2).
  return ["/", "/blog", `/blog/${first!.slug}`, "/about"];
}

test("no dead buttons: every button is in an island or in a form that works without JavaScript", async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name !== "desktop", "the pages' markup is the same on every screen");
  for (const path of await publicPages(page)) {
    await page.goto(path);
    const dead = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>("button, [role=button]")]
        .filter((control) => {
          if (control.closest("[data-island]")) return false;
          const form = control instanceof HTMLButtonElement ? control.form : control.closest("form");
          if (form?.hasAttribute("action")) return false;
          // Previous/Next at the ends of the list: a disabled submit button
          // in a GET form (SPEC §2), inert by design, not by accident.
          return !(control instanceof HTMLButtonElement && control.disabled && form);
        })
        .map((control) => control.outerHTML.slice(0, 160)),
    );
    expect(dead, `buttons on ${path} that no script or form serves`).toEqual([]);
  }
});
