import { type Page, type TestInfo } from "@playwright/test";
import { E2E_ADMIN } from "../../playwright.config";
import { DESKTOP, expect, expectNoAxeViolations, hydrated, test } from "./fixtures";

/**
 * Issue 31, redirects and the not-found log (ADR 054): the owner adds,
 * changes, deletes and imports redirects on Admin > Redirects, and on
 * Admin > Not found redirects or dismisses the addresses that answered 404.
 * Each test's paths are its project's and run's own (desktop and phone share
 * a site).
 */

test.beforeEach(async ({ page }, testInfo) => {
  if (testInfo.project.name === "phone") await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ reducedMotion: "reduce" });
  const response = await page.request.post("/api/auth/login", { data: E2E_ADMIN });
  expect(response.status()).toBe(200);
});

const unique = (label: string, testInfo: TestInfo) => `/${label}-${testInfo.project.name}-${Date.now().toString(36)}`;

async function openScreen(page: Page, name: "Redirects" | "Not found") {
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await hydrated(page);
}

test("the owner adds, changes, deletes and imports redirects", async ({ page }, testInfo) => {
  const from = unique("old-page", testInfo);
  await page.goto("/admin");
  await openScreen(page, "Redirects");
  await expectNoAxeViolations(page);

  const add = page.getByRole("region", { name: "Add a redirect" });
  await add.getByLabel("From (a path on this site)").fill(from);
  await add.getByLabel("To (a path on this site or an https:// address)").fill("javascript:alert(1)");
  await add.getByRole("button", { name: "Add redirect" }).click();
  await expect(page.getByRole("alert")).toContainText("to must be a path on this site");
  await expectNoAxeViolations(page);
  await add.getByLabel("To (a path on this site or an https:// address)").fill("/about");
  await add.getByRole("button", { name: "Add redirect" }).click();
  await expect(page.getByRole("status")).toHaveText(`Redirect from ${from} added.`);
  const row = page.getByRole("list", { name: "Redirects" }).getByRole("listitem").filter({ hasText: from });
  await expect(row).toContainText("Permanent (301)");
  await expectNoAxeViolations(page);

  // The old address leads to the new one.
  const followed = await page.request.get(from, { maxRedirects: 0 });
  expect(followed.status()).toBe(301);
  expect(followed.headers().location).toBe("/about");

  // Change it: temporary, to /blog.
  await row.getByText("Change", { exact: true }).click();
  await row.getByLabel("To (a path on this site or an https:// address)").fill("/blog");
  await row.getByLabel("Kind").selectOption("302");
  await row.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status")).toHaveText(`Redirect from ${from} changed.`);
  await expect(row).toContainText("Temporary (302)");
  expect((await page.request.get(from, { maxRedirects: 0 })).headers().location).toBe("/blog");

  // Delete asks first.
  page.once("dialog", (dialog) => void dialog.accept());
  await row.getByRole("button", { name: `Delete the redirect from ${from}` }).click();
  await expect(page.getByRole("status")).toHaveText(`Redirect from ${from} deleted.`);
  await expect(row).toHaveCount(0);

  // Import: a bad line refuses the whole file, naming it; the fixed file is imported.
  const imported = unique("imported", testInfo);
  const file = page.getByLabel("CSV file");
  await file.setInputFiles({
    name: "redirects.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`from,to,status\n${imported},/about\nno-slash,/about\n`),
  });
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page.getByRole("alert")).toContainText("Line 3: from must be a path on this site");
  await expectNoAxeViolations(page);
  await file.setInputFiles({
    name: "redirects.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`from,to,status\n${imported},https://example.org/moved,302\n`),
  });
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page.getByRole("status")).toHaveText("Imported 1 redirect.");

  // The search finds it.
  await page.getByLabel("Search from or to").fill(imported.slice(1));
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByRole("list", { name: "Redirects" }).getByRole("listitem")).toHaveCount(1);
  await expect(page.getByText("1 redirect.", { exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
});

test(
  "an address that answered 404 can be redirected or dismissed from the not-found log",
  DESKTOP,
  async ({ page }, testInfo) => {
    const missing = unique("missing", testInfo);
    const other = unique("dismiss-me", testInfo);
    // The landing page, answered 404.
    const answer = await page.goto(missing);
    expect(answer?.status()).toBe(404);
    await page.request.get(other);

    // Counts are written every few seconds: look until both are listed.
    await page.goto("/admin/not-found");
    const list = page.getByRole("list", { name: "Addresses not found" });
    await expect(async () => {
      await page.reload();
      await expect(list.getByRole("listitem").filter({ hasText: other })).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await hydrated(page);
    await expectNoAxeViolations(page);

    await page.getByRole("button", { name: `Dismiss ${other}` }).click();
    await expect(page.getByRole("status")).toContainText(`${other} dismissed.`);
    await expect(list.getByRole("listitem").filter({ hasText: other })).toHaveCount(0);

    await page.getByRole("link", { name: `Redirect ${missing}` }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Redirects" })).toBeVisible();
    await hydrated(page);
    const add = page.getByRole("region", { name: "Add a redirect" });
    await expect(add.getByLabel("From (a path on this site)")).toHaveValue(missing);
    await add.getByLabel("To (a path on this site or an https:// address)").fill("/blog");
    await add.getByRole("button", { name: "Add redirect" }).click();
    await expect(page.getByRole("status")).toHaveText(`Redirect from ${missing} added.`);
    await openScreen(page, "Not found");
    await expect(page.getByRole("list", { name: "Addresses not found" }).getByText(missing)).toHaveCount(0);
    await expectNoAxeViolations(page);
  },
);
