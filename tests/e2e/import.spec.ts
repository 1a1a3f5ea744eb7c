import type { Page, TestInfo } from "@playwright/test";
import { E2E_ADMIN } from "../../playwright.config";
import { wxrFile } from "../../scripts/lib/exports.mjs";
import { DESKTOP, expect, expectNoAxeViolations, hydrated, test } from "./fixtures";

/**
 * Import from WordPress and Ghost (ADR 074): the owner uploads a WordPress
 * export on Admin > Import, follows its report to the end, and the old
 * site's address of a post leads to it here. Each test's export is its
 * project's and run's own (old site, slugs, paths): desktop and phone may
 * share a site, and a second import of the same file adds nothing.
 */

test.beforeEach(async ({ page }, testInfo) => {
  if (testInfo.project.name === "phone") await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ reducedMotion: "reduce" });
  const response = await page.request.post("/api/auth/login", { data: E2E_ADMIN });
  expect(response.status()).toBe(200);
});

/** Lower case, digits and hyphens: a slug and a host name as they are. */
const runOf = (testInfo: TestInfo) => `${testInfo.project.name}-${Date.now().toString(36)}`;

/** The old site, one category, a published post and a draft (with WordPress's zero dates). */
function wxr(run: string): string {
  const site = `https://old-${run}.example`;
  const html = "<p>Hello <strong>world</strong></p>";
  const category = { name: "News", nicename: "news" };
  return wxrFile(site, [
    {
      id: 101,
      title: `Hello world ${run}`,
      slug: `hello-${run}`,
      link: `${site}/2020/01/hello-${run}/`,
      dateGmt: "2020-01-15 09:30:00",
      html,
      category,
    },
    { id: 102, title: `Not yet ${run}`, slug: `not-yet-${run}`, status: "draft", html, category },
  ]);
}

async function openImport(page: Page) {
  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Import", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Import" })).toBeVisible();
  await hydrated(page);
}

test("the owner imports a WordPress export and its old address leads to the post", async ({ page }, testInfo) => {
  const run = runOf(testInfo);
  const fileName = `wordpress-${run}.xml`;
  await openImport(page);
  await expectNoAxeViolations(page);

  await page.getByLabel("Export file", { exact: true }).setInputFiles({
    name: fileName,
    mimeType: "text/xml",
    buffer: Buffer.from(wxr(run)),
  });
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/import\?id=[^&]+$/);
  const report = page.getByRole("region", { name: `Import of ${fileName}` });
  // The report follows the job (a poll every 2 s) until it is done.
  await expect(report.getByText("Done: 2 posts created, 0 skipped.", { exact: true })).toBeVisible({
    timeout: 30_000,
  });
  await expect(report.locator("dl > div").filter({ hasText: "Posts created" })).toContainText("2");
  await expect(report.getByRole("progressbar")).toHaveCount(0);
  const earlier = page.getByRole("table", { name: "Imports, newest first" });
  await expect(earlier.getByRole("row").filter({ hasText: fileName })).toContainText("Done");
  await expectNoAxeViolations(page);

  // The old site's address of the published post leads to it here; the draft is not public.
  const oldPath = `/2020/01/hello-${run}/`;
  const followed = await page.request.get(oldPath, { maxRedirects: 0 });
  expect(followed.status()).toBe(301);
  expect(followed.headers().location).toBe(`/blog/hello-${run}`);
  await page.goto(oldPath);
  await expect(page).toHaveURL(new RegExp(`/blog/hello-${run}$`));
  const article = page.getByRole("article", { name: `Hello world ${run}` });
  await expect(article.getByText("Hello world", { exact: true })).toBeVisible();
  await expect(article.locator("strong", { hasText: "world" })).toBeVisible();
  expect((await page.request.get(`/blog/not-yet-${run}`)).status()).toBe(404);
});

test.describe("without the page's script", () => {
  test.use({ javaScriptEnabled: false });

  test("a refused upload says why and keeps the address typed", DESKTOP, async ({ page }, testInfo) => {
    const run = runOf(testInfo);
    await page.goto("/admin/import");
    await expect(page.getByRole("heading", { level: 1, name: "Import" })).toBeVisible();
    await page.getByLabel("Export file", { exact: true }).setInputFiles({
      name: `wordpress-${run}.xml`,
      mimeType: "text/xml",
      buffer: Buffer.from(wxr(run)),
    });
    // A valid URL to the browser, not an old site's address to the server.
    await page.getByLabel("Old site's address (optional)").fill("javascript:alert(1)");
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await expect(page.getByRole("alert")).toContainText("Nothing was imported.");
    await expect(page.getByLabel("Old site's address (optional)")).toHaveValue("javascript:alert(1)");
  });
});
