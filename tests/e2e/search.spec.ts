import { E2E_ADMIN } from "../../playwright.config";
import { DESKTOP, expect, expectNoAxeViolations, test } from "./fixtures";

/**
 * The blog search (ADR 042) in a real browser, on a desktop and a phone: the
 * box on /blog leads to /blog/search with the matches marked, each a link to
 * its article; an empty result says so; without JavaScript the form works
 * the same (a plain GET form); no axe violations; nothing wider than the screen.
 */

async function noSideways(page: import("@playwright/test").Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

test("the box on /blog finds posts; a result opens its article", async ({ page }) => {
  await page.goto("/blog");
  const box = page.getByRole("search").getByLabel("Search the blog");
  await box.fill("Tenant   ONBOARDING");
  await box.press("Enter");
  await expect(page).toHaveURL(/\/blog\/search\?q=Tenant\+\+\+ONBOARDING$/);
  await expect(page.getByRole("heading", { level: 1, name: "Search the blog" })).toBeVisible();
  await expect(page.getByRole("status")).toHaveText(/^(1 post matches|\d+ posts match)\.$/);
  await expect(page.getByRole("searchbox", { name: "Search the blog" })).toHaveValue("tenant onboarding");
  const result = page.getByRole("link", { name: "Tenant Onboarding in Under 30 Minutes with Cloud Governance" });
  await expect(result).toHaveAttribute("href", "/blog/tenant-onboarding-in-under-30-minutes");
  await expect(page.locator("main ol mark").first()).toBeVisible();
  await expectNoAxeViolations(page);
  await noSideways(page);
  await result.click();
  await expect(page).toHaveURL(/\/blog\/tenant-onboarding-in-under-30-minutes$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "Tenant Onboarding in Under 30 Minutes with Cloud Governance",
  );
});

test("a search with no matches says so and keeps the words in the box", DESKTOP, async ({ page }) => {
  await page.goto("/blog/search?q=zzyzx+quux");
  await expect(page.getByRole("status")).toHaveText("No posts match “zzyzx quux”.");
  await expect(page.getByRole("searchbox", { name: "Search the blog" })).toHaveValue("zzyzx quux");
  await expect(page.getByRole("link", { name: "browse all articles" })).toHaveAttribute("href", "/blog");
  await expectNoAxeViolations(page);
  await noSideways(page);
});

test("an over-long search gets a message, not an error page", DESKTOP, async ({ page }) => {
  const response = await page.goto(`/blog/search?q=${"word ".repeat(50)}`);
  expect(response?.status()).toBe(400);
  await expect(page.getByRole("alert")).toHaveText("That search is too long. Search for at most 200 characters.");
  await expectNoAxeViolations(page);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the form searches and the results link to the articles", async ({ page }) => {
    await page.goto("/blog/search");
    await expect(page.getByRole("status")).toHaveCount(0);
    await page.getByLabel("Search the blog").fill("garden monitor");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(/\/blog\/search\?q=garden\+monitor$/);
    await expect(page.getByRole("link", { name: "Building an IoT Garden Monitor in Ojai" })).toBeVisible();
    await noSideways(page);
  });
});

test('the editor says why the slug "search" is refused and keeps the post', DESKTOP, async ({ page }) => {
  const response = await page.request.post("/api/auth/login", { data: E2E_ADMIN });
  expect(response.status()).toBe(200);
  await page.goto("/admin");
  await page.getByRole("button", { name: "Create New Post" }).click();
  await page.getByLabel("Title").fill("How we search");
  await page.getByLabel("Slug").fill("search");
  await page.getByLabel("Excerpt").fill("An excerpt.");
  await page.getByLabel("Content").fill("Body text.");
  const dialog = page.waitForEvent("dialog");
  const clicked = page.getByRole("button", { name: "Save" }).click();
  const opened = await dialog;
  expect(opened.message()).toContain('The slug \\"search\\" is taken by the blog');
  await opened.accept();
  await clicked;
  await expect(page.getByRole("alert")).toHaveText(
    'The post was not saved: The slug "search" is taken by the blog\'s own /blog/search page; choose another slug. Your changes are kept.',
  );
  await expect(page.getByLabel("Title")).toHaveValue("How we search");
});
