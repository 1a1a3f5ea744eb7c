import type { Browser, BrowserContext, Page } from "@playwright/test";
import { E2E_ADMIN } from "../../playwright.config";
import { DESKTOP, expect, expectNoAxeViolations, hydrated, screenshotForReview, signIn, test } from "./fixtures";

/**
 * Autosave, edit conflicts and revisions (issue 18, ADR 043) in the browser,
 * on the desktop; the History panel at phone width too (the rest is the
 * server's behaviour, which no screen size changes).
 */

const unique = (label: string, project: string) => `${label} ${project} ${Date.now().toString(36)}`;
const slugOf = (title: string) => title.toLowerCase().replaceAll(/[^a-z\d]+/g, "-");

/** A post made over the API (as the signed-in page's context); answers its id. */
async function createPost(page: Page, title: string, content: string): Promise<string> {
  const response = await page.request.post("/api/admin/posts", {
    data: { title, slug: slugOf(title), excerpt: "An excerpt.", content, published: false },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** The admin list filtered to this title, and its editor opened. */
async function openEditor(page: Page, title: string) {
  await page.goto(`/admin?q=${encodeURIComponent(title)}`);
  await hydrated(page);
  await page.getByRole("row").filter({ hasText: title }).getByRole("button", { name: "Edit" }).click();
  await expect(page.getByRole("heading", { name: "Edit Post" })).toBeVisible();
}

/** A second browser profile (no shared localStorage) at the project's size. */
async function otherBrowser(browser: Browser, origin: string): Promise<BrowserContext> {
  const use = test.info().project.use;
  return browser.newContext({
    viewport: use.viewport,
    userAgent: use.userAgent,
    isMobile: use.isMobile,
    hasTouch: use.hasTouch,
    deviceScaleFactor: use.deviceScaleFactor,
    baseURL: origin,
  });
}

test(
  "a draft kept on the server survives a closed tab: another browser is offered it and restores it",
  DESKTOP,
  async ({ page, context, browser }, testInfo) => {
    // Two browsers, the autosave's pause and two axe runs: more than the usual time on a shared machine.
    test.slow();
    await signIn(page);
    const title = unique("Autosaved", testInfo.project.name);
    const id = await createPost(page, title, "The stored body.");
    await openEditor(page, title);
    await page.getByLabel("Content").fill("Typed before the tab was closed.");
    await expect(page.getByText("Changes kept on this device")).toBeVisible();
    await expect(page.getByText(/^Draft saved \d\d:\d\d/)).toBeVisible({ timeout: 10_000 });
    const origin = new URL(page.url()).origin;
    // Closed without saving, as a crash or a closed tab would.
    await page.close({ runBeforeUnload: false });

    // The post itself did not change.
    const stored = await context.request.get(`/api/admin/posts/${id}`);
    expect(((await stored.json()) as { content: string }).content).toBe("The stored body.");

    // Another browser (no local copy): the server's draft is offered.
    const other = await otherBrowser(browser, origin);
    const again = await other.newPage();
    await signIn(again);
    await openEditor(again, title);
    await expect(again.getByLabel("Content")).toHaveValue("The stored body.");
    const offer = again.getByRole("region", { name: "Unsaved changes found" });
    await expect(offer).toContainText("kept on the server");
    await expectNoAxeViolations(again);
    await screenshotForReview(again, "restore-offer", { fullPage: false });
    await offer.getByRole("button", { name: "Restore newer changes" }).click();
    await expect(again.getByLabel("Content")).toHaveValue("Typed before the tab was closed.");
    await expect(offer).toBeHidden();
    // Saving makes it the post, and the drafts go.
    await again.getByRole("button", { name: "Save" }).click();
    await expect(again.getByRole("heading", { name: "Edit Post" })).toBeHidden();
    const saved = await again.request.get(`/api/admin/posts/${id}`);
    expect(((await saved.json()) as { content: string }).content).toBe("Typed before the tab was closed.");
    expect((await again.request.get(`/api/admin/posts/${id}/autosave`)).status()).toBe(404);
    await openEditor(again, title);
    await expect(again.getByRole("region", { name: "Unsaved changes found" })).toBeHidden();
    await other.close();
  },
);

test(
  "a browser that says it is offline while the site answers still keeps the draft on the server",
  DESKTOP,
  async ({ page, context }, testInfo) => {
    // A browser on a network with no way out (an intranet, or a machine with
    // only loopback) reports navigator.onLine false; the site still answers.
    await context.addInitScript(() => Object.defineProperty(Navigator.prototype, "onLine", { get: () => false }));
    await signIn(page);
    const title = unique("Said offline", testInfo.project.name);
    const id = await createPost(page, title, "Stored body.");
    await openEditor(page, title);
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);
    await page.getByLabel("Content").fill("Typed on an intranet.");
    await expect(page.getByText(/^Draft saved \d\d:\d\d/)).toBeVisible({ timeout: 10_000 });
    const draft = await context.request.get(`/api/admin/posts/${id}/autosave`);
    expect(draft.status()).toBe(200);
    expect(((await draft.json()) as { content: string }).content).toBe("Typed on an intranet.");
  },
);

test(
  "with the network lost, changes are kept on this device and offered when the editor opens again",
  DESKTOP,
  async ({ page, context }, testInfo) => {
    await signIn(page);
    const title = unique("Offline", testInfo.project.name);
    await createPost(page, title, "Online body.");
    await openEditor(page, title);
    // The tab never reaches the server again. Playwright's close() returns
    // before the tab's renderer has gone, so that renderer's pending autosave
    // can still run once the network is back (setOffline(false) below) and keep
    // its draft on the server, which would then be offered as the server's;
    // routes end with the page and do not stop it. A person's closed tab sends
    // nothing: this one's fetch fails from here on, as it does offline.
    await page.evaluate(() => {
      window.fetch = () => Promise.reject(new TypeError("Failed to fetch"));
    });
    await context.setOffline(true);
    await page.getByLabel("Content").fill("Written on a train without signal.");
    await expect(page.getByText("Offline: changes kept on this device")).toBeVisible();
    // The tab is closed while still offline.
    await page.close({ runBeforeUnload: false });
    await context.setOffline(false);

    const next = await context.newPage();
    await next.goto("/admin");
    await hydrated(next);
    await openEditor(next, title);
    await expect(next.getByLabel("Content")).toHaveValue("Online body.");
    const offer = next.getByRole("region", { name: "Unsaved changes found" });
    await expect(offer).toContainText("kept on this device");
    await offer.getByRole("button", { name: "Restore newer changes" }).click();
    await expect(next.getByLabel("Content")).toHaveValue("Written on a train without signal.");

    // Discard: the offer goes and does not come back.
    await next.getByLabel("Content").fill("Online body, edited again.");
    await next.getByRole("button", { name: "Close" }).click();
    await openEditor(next, title);
    await next
      .getByRole("region", { name: "Unsaved changes found" })
      .getByRole("button", { name: "Discard them" })
      .click();
    await next.getByRole("button", { name: "Close" }).click();
    await openEditor(next, title);
    await expect(next.getByLabel("Content")).toHaveValue("Online body.");
    await expect(next.getByRole("region", { name: "Unsaved changes found" })).toBeHidden();
  },
);

test(
  "two tabs on one post: the second save gets the conflict message and keeps its text; saving again replaces",
  DESKTOP,
  async ({ page, context }, testInfo) => {
    await signIn(page);
    const title = unique("Two tabs", testInfo.project.name);
    const id = await createPost(page, title, "Shared body.");
    await openEditor(page, title);
    const second = await context.newPage();
    await openEditor(second, title);

    await page.getByLabel("Content").fill("The first tab's text.");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("heading", { name: "Edit Post" })).toBeHidden();

    await second.getByLabel("Content").fill("The second tab's text.");
    const dialog = second.waitForEvent("dialog");
    const click = second.getByRole("button", { name: "Save" }).click();
    const alert = await dialog;
    expect(alert.message()).toContain("409");
    await alert.accept();
    await click;
    await expect(
      second
        .getByRole("alert")
        .filter({ hasText: "This post was changed in another tab or by another administrator at" }),
    ).toBeVisible();
    await expect(second.getByLabel("Content")).toHaveValue("The second tab's text.");
    const between = await context.request.get(`/api/admin/posts/${id}`);
    expect(((await between.json()) as { content: string }).content).toBe("The first tab's text.");
    await expectNoAxeViolations(second);

    await second.getByRole("button", { name: "Save" }).click();
    await expect(second.getByRole("heading", { name: "Edit Post" })).toBeHidden();
    const after = await context.request.get(`/api/admin/posts/${id}`);
    expect(((await after.json()) as { content: string }).content).toBe("The second tab's text.");
  },
);

test(
  "a draft made from a version someone has since replaced is restored into the conflict message, not over their save",
  DESKTOP,
  async ({ page, context }, testInfo) => {
    await signIn(page);
    const title = unique("Stale draft", testInfo.project.name);
    const id = await createPost(page, title, "Version one.");
    await openEditor(page, title);
    await context.setOffline(true);
    await page.getByLabel("Content").fill("Typed from version one.");
    await expect(page.getByText("Offline: changes kept on this device")).toBeVisible();
    await page.close({ runBeforeUnload: false });
    await context.setOffline(false);

    // Meanwhile someone else saves a second version.
    const put = await context.request.put(`/api/admin/posts/${id}`, {
      data: {
        title,
        slug: slugOf(title),
        excerpt: "An excerpt.",
        content: "Version two, by a colleague.",
        published: false,
      },
    });
    expect(put.status()).toBe(200);

    const next = await context.newPage();
    await openEditor(next, title);
    await expect(next.getByLabel("Content")).toHaveValue("Version two, by a colleague.");
    const offer = next.getByRole("region", { name: "Unsaved changes found" });
    await expect(offer).toContainText("made from an earlier version: the post was saved since");
    await offer.getByRole("button", { name: "Restore newer changes" }).click();
    await expect(next.getByLabel("Content")).toHaveValue("Typed from version one.");
    // Saving it meets the conflict: the colleague's version stays until a second Save.
    const dialog = next.waitForEvent("dialog");
    const click = next.getByRole("button", { name: "Save" }).click();
    await (await dialog).accept();
    await click;
    await expect(
      next
        .getByRole("alert")
        .filter({ hasText: "This post was changed in another tab or by another administrator at" }),
    ).toBeVisible();
    const between = await context.request.get(`/api/admin/posts/${id}`);
    expect(((await between.json()) as { content: string }).content).toBe("Version two, by a colleague.");
    await next.getByRole("button", { name: "Save" }).click();
    await expect(next.getByRole("heading", { name: "Edit Post" })).toBeHidden();
    const after = await context.request.get(`/api/admin/posts/${id}`);
    expect(((await after.json()) as { content: string }).content).toBe("Typed from version one.");
  },
);

test("history lists the saved versions, compares one with the form and restores it into the form", async ({
  page,
}, testInfo) => {
  await signIn(page);
  const title = unique("Versions", testInfo.project.name);
  const id = await createPost(page, title, "The first words of the post.");
  for (const content of ["The second words of the post.", "The third words of the post, now longer."]) {
    const put = await page.request.put(`/api/admin/posts/${id}`, {
      data: { title, slug: slugOf(title), excerpt: "An excerpt.", content, published: false },
    });
    expect(put.status()).toBe(200);
  }
  await openEditor(page, title);
  await page.getByRole("button", { name: "Show history" }).click();
  const history = page.getByRole("region", { name: "History" });
  const versions = history.getByRole("listitem");
  await expect(versions).toHaveCount(3);
  await expect(versions.first()).toContainText("Version 3");
  await expect(versions.first()).toContainText(E2E_ADMIN.email);

  await history.getByRole("button", { name: /^Version 1,/ }).click();
  await expect(history.getByRole("heading", { name: "Version 1 compared with the form" })).toBeVisible();
  // Insertions and deletions are marked up, with words for screen readers.
  await expect(history.locator("ins").filter({ hasText: "first" })).toBeVisible();
  await expect(history.locator("del").filter({ hasText: "third" })).toBeVisible();
  await expect(history.locator("ins").filter({ hasText: "first" })).toContainText("only in version 1");
  await expect(history.locator("del").filter({ hasText: "third" })).toContainText("only in the form now");
  await expectNoAxeViolations(page);
  await screenshotForReview(page, "revisions");

  await history.getByRole("button", { name: "Restore this version" }).click();
  await expect(page.getByLabel("Content")).toHaveValue("The first words of the post.");
  await expect(history).toContainText("Version 1 is in the form now");
  // Nothing changed for the post until Save, which keeps it as version 4.
  const before = await page.request.get(`/api/admin/posts/${id}`);
  expect(((await before.json()) as { content: string }).content).toBe("The third words of the post, now longer.");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("heading", { name: "Edit Post" })).toBeHidden();
  const list = await page.request.get(`/api/admin/posts/${id}/revisions`);
  const { revisions } = (await list.json()) as { revisions: Array<{ number: number }> };
  expect(revisions.map((r) => r.number)).toEqual([4, 3, 2, 1]);
});
