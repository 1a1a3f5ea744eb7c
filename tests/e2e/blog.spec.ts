import { type Page } from "@playwright/test";
import { DESKTOP, expect, expectNoAxeViolations, hydrated, test } from "./fixtures";

/**
 * The public blog (docs/product/interface.md#public-blog) in a real browser: the card grid, the in-place article
 * with 'Back to articles' and bounded Previous/Next, loading text, and the
 * /blog/{slug} page with and without JavaScript. The list order is read from
 * the page, so posts other tests add do not break these.
 */

function collectErrors(page: Page) {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  return errors;
}

async function cardTitles(page: Page) {
  return page.locator("main article h2").allTextContents();
}

test("the list shows cards with image, category, date, title, clamped excerpt, author and read time", async ({
  page,
}, testInfo) => {
  const errors = collectErrors(page);
  await page.goto("/blog");
  await expect(page.getByRole("heading", { level: 1, name: "Blog" })).toBeVisible();
  const cards = page.locator("main article");
  expect(await cards.count()).toBeGreaterThanOrEqual(3);
  const first = cards.first();
  await expect(first.locator("time")).toHaveText(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
  await expect(first.getByText(/min read/)).toBeVisible();
  await expect(first.getByRole("link")).toHaveAttribute("href", /^\/blog\/[a-z0-9-]+$/);
  const excerpt = first.locator("p.line-clamp-3");
  expect(await excerpt.evaluate((el) => getComputedStyle(el).webkitLineClamp)).toBe("3");

  // 3 columns on a wide screen, 1 on a phone.
  const lefts = new Set(
    await cards.evaluateAll((els) => els.slice(0, 3).map((el) => Math.round(el.getBoundingClientRect().left))),
  );
  expect(lefts.size).toBe(testInfo.project.name === "phone" ? 1 : 3);

  await expectNoAxeViolations(page);
  expect(errors).toEqual([]);
});

test("a card opens the article in place; Previous/Next move by one and are disabled at the ends; Back returns", async ({
  page,
}) => {
  const errors = collectErrors(page);
  await page.goto("/blog");
  const titles = await cardTitles(page);
  expect(titles.length).toBeGreaterThanOrEqual(3);

  await page.locator("main article").first().getByRole("link").click();
  await expect(page).toHaveURL(/\/blog\?article=[a-z0-9-]+$/);
  const heading = page.getByRole("heading", { level: 1 });
  await expect(heading).toHaveText(titles[0]!);
  await expect(heading).toBeFocused();
  await expect(page.getByRole("link", { name: "Back to articles" })).toBeVisible();
  await expect(page.getByText(/^By /)).toBeVisible();
  await expect(page.locator(".prose-article")).not.toBeEmpty();
  const previous = page.getByRole("button", { name: /^Previous/ });
  const next = page.getByRole("button", { name: /^Next/ });
  await expect(previous).toBeDisabled();
  await expect(next).toBeEnabled();
  await expectNoAxeViolations(page);

  await next.click();
  await expect(heading).toHaveText(titles[1]!);
  await expect(previous).toBeEnabled();
  await previous.click();
  await expect(heading).toHaveText(titles[0]!);

  // Walk to the last article of the whole list: Next is disabled there.
  for (let i = 0; i < 200 && (await next.isEnabled()); i++) {
    const before = await heading.textContent();
    await next.click();
    await expect(heading).not.toHaveText(before!);
  }
  await expect(next).toBeDisabled();
  await expect(previous).toBeEnabled();

  // Each move is a page load; 'Back to articles' hands focus over through the page's script.
  await hydrated(page);
  await page.getByRole("link", { name: "Back to articles" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Blog" })).toBeVisible();
  await expect(page).toHaveURL(/\/blog(\?page=\d+)?$/);
  // Focus returns to the card of the article just read.
  await expect(page.locator("main article h2 a:focus")).toHaveCount(1);
  expect(errors).toEqual([]);
});

test("the browser's Back closes the in-place article", async ({ page }) => {
  await page.goto("/blog");
  await page.locator("main article").nth(1).getByRole("link").click();
  await expect(page.getByRole("link", { name: "Back to articles" })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole("heading", { level: 1, name: "Blog" })).toBeVisible();
});

test("shows loading text while an article loads", DESKTOP, async ({ page }) => {
  await page.goto("/blog");
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  // The in-place article is a page of its own: hold its request while the list says it is loading.
  await page.route(/\/blog\?article=/, async (route) => {
    await held;
    await route.continue();
  });
  // While a page load is pending, Playwright's own checks wait for it: the page
  // reports what its status line says instead.
  await page.evaluate(() => {
    const status = document.querySelector('[role="status"]')!;
    new MutationObserver(() => console.log(`status: ${status.textContent}`)).observe(status, {
      childList: true,
      subtree: true,
      characterData: true,
    });
  });
  const shown = page.waitForEvent("console", (message) => message.text() === "status: Loading article...");
  // The click waits for the page load it starts, which is held: let it run on.
  const click = page.locator("main article").first().getByRole("link").click();
  await shown;
  release();
  await click;
  await expect(page.getByRole("link", { name: "Back to articles" })).toBeVisible();
  await expect(page.getByRole("status")).toHaveText("");
});

test("/blog/{slug} is a complete article with its meta tags, and its buttons lead on", async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto("/blog");
  const titles = await cardTitles(page);
  const href = await page.locator("main article").nth(1).getByRole("link").getAttribute("href");
  await page.goto(href!);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(titles[1]!);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", new RegExp(`${href}$`));
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", titles[1]!);
  await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute("content", /summary/);
  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
  expect(jsonLd["@type"]).toBe("BlogPosting");
  await expectNoAxeViolations(page);

  await hydrated(page);
  await page.getByRole("button", { name: /^Previous/ }).click();
  await expect(page).toHaveURL(/\/blog\/[a-z0-9-]+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(titles[0]!);
  await expect(page.getByRole("button", { name: /^Previous/ })).toBeDisabled();
  expect(errors).toEqual([]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the article, the list and Previous/Next all work", async ({ page }) => {
    await page.goto("/blog");
    const titles = await cardTitles(page);
    await page.locator("main article").first().getByRole("link").click();
    await expect(page).toHaveURL(/\/blog\/[a-z0-9-]+$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(titles[0]!);
    await expect(page.locator(".prose-article p").first()).toBeVisible();
    await page.getByRole("button", { name: /^Next/ }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(titles[1]!);

    await page.goto(`/blog?article=${encodeURIComponent(page.url().split("/blog/")[1]!.split("?")[0]!)}`);
    await page.getByRole("button", { name: /^Next/ }).click();
    await expect(page).toHaveURL(/\/blog\?article=[a-z0-9-]+$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(titles[2]!);
  });
});

// An unknown article's 404 page: smoke.spec.ts, with its way back.
