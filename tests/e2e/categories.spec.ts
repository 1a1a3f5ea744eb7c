import { type Page } from "@playwright/test";
import { DESKTOP, expect, expectNoAxeViolations, hydrated, test } from "./fixtures";

/**
 * Category pages (docs/product/contract.md#categories, ADR 041) in a real browser, desktop and phone:
 * from a card's category link to /blog/category/{slug} and on to the article,
 * the article's category link, the breadcrumb back to /blog, the 404 of an
 * unknown category, and the page without JavaScript. The sample posts give
 * "Web Design", "Cloud" and "Research" one post each; other specs may add more.
 */

const WEB_DESIGN = "/blog/category/web-design";

function collectErrors(page: Page) {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  return errors;
}

/** The card (on /blog) of the newest post in Web Design: the one with the link to its category. */
const webDesignLink = (page: Page) => page.locator("main").getByRole("link", { name: "More in Web Design" }).first();

test("a card's category link opens the category's page, whose cards open the article's own page", async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto("/blog");
  const link = webDesignLink(page);
  await expect(link).toHaveAttribute("href", WEB_DESIGN);
  await link.click();
  await expect(page).toHaveURL(WEB_DESIGN);
  await hydrated(page);
  await expect(page.getByRole("heading", { level: 1, name: "Web Design" })).toBeVisible();
  await expect(page).toHaveTitle(/^Web Design \| Blog \| /);
  const cards = page.locator("main article");
  expect(await cards.count()).toBeGreaterThanOrEqual(1);
  // Every card here is of this category, and none links the page it is on.
  await expect(page.locator("main").getByRole("link", { name: /^More in / })).toHaveCount(0);
  await expectNoAxeViolations(page);

  const title = (await cards.first().locator("h2").textContent())!;
  await cards.first().getByRole("link").click();
  await expect(page).toHaveURL(/\/blog\/[a-z0-9-]+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  expect(errors).toEqual([]);
});

test("a click on a card outside its category link still opens the article in place on /blog", async ({ page }) => {
  await page.goto("/blog");
  const card = page.locator("main article").first();
  const title = (await card.locator("h2").textContent())!;
  // A person's click on the excerpt, which the title link's stretched area covers (so Playwright's
  // own check that the excerpt itself takes the click is skipped): the link must receive it.
  await card.locator("p.line-clamp-3").scrollIntoViewIfNeeded();
  const box = (await card.locator("p.line-clamp-3").boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(page).toHaveURL(/\/blog\?article=[a-z0-9-]+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
});

test("the keyboard reaches a card's article link, then its category link", DESKTOP, async ({ page }) => {
  await page.goto("/blog");
  // The first card with a category (other tests' posts may have none): its
  // category link sits beside the card's <article>, inside the card.
  const categoryLink = page.getByRole("link", { name: /^More in / }).first();
  const card = categoryLink.locator("xpath=ancestor::div[article][1]");
  const titleLink = card.locator("article").getByRole("link");
  await titleLink.focus();
  await page.keyboard.press("Tab");
  const focused = page.locator(":focus");
  await expect(focused).toHaveAttribute("href", /^\/blog\/category\/[a-z0-9-]+$/);
  await expect(focused).toHaveText(/^More in /);
});

test("the article names its category as a link to the category's page", async ({ page }) => {
  await page.goto("/blog/why-small-businesses-deserve-enterprise-grade-websites");
  const link = page.locator("main article").getByRole("link", { name: "Web Design", exact: true });
  await expect(link).toHaveAttribute("href", WEB_DESIGN);
  await link.click();
  await expect(page).toHaveURL(WEB_DESIGN);
  await hydrated(page);
  await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Blog" }).click();
  await expect(page).toHaveURL(/\/blog$/);
  await expect(page.getByRole("heading", { level: 1, name: "Blog" })).toBeVisible();
});

test("offers the category's feed and a canonical URL", DESKTOP, async ({ page, request }) => {
  await page.goto(`${WEB_DESIGN}?page=1`);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/blog\/category\/web-design$/);
  const feed = page.locator('link[rel="alternate"][type="application/rss+xml"]');
  await expect(feed).toHaveAttribute("href", `${WEB_DESIGN}/rss.xml`);
  const rss = await request.get(`${WEB_DESIGN}/rss.xml`);
  expect(rss.status()).toBe(200);
  expect(await rss.text()).toContain("<item>");
});

test("an unknown category is the site's 404 page", DESKTOP, async ({ page }) => {
  const response = await page.goto("/blog/category/no-such-category");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  await expectNoAxeViolations(page);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the category page and its links work", async ({ page }) => {
    await page.goto(WEB_DESIGN);
    await expect(page.getByRole("heading", { level: 1, name: "Web Design" })).toBeVisible();
    await page.locator("main article").first().getByRole("link").click();
    await expect(page).toHaveURL(/\/blog\/[a-z0-9-]+$/);
    await page.locator("main article").getByRole("link", { name: "Web Design", exact: true }).click();
    await expect(page).toHaveURL(WEB_DESIGN);
  });
});
