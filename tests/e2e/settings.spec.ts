import fs from "node:fs";
import { type Page } from "@playwright/test";
import { E2E_ADMIN } from "../../playwright.config";
import { expect, expectNoAxeViolations, hydrated, test } from "./fixtures";

/**
 * Issue 16: the owner edits the site's details in Admin > Settings and sees
 * them on the public pages; a mistake is explained by its field and nothing
 * typed is lost; "Download backup" gives the whole site as one file.
 * Every project (desktop, phone) shares one server: each test puts the
 * settings back as it found them.
 */

/** Signs in over the API, which gives the page's context the session cookie (the form is smoke.spec.ts's to test). */
async function signIn(page: Page) {
  const response = await page.request.post("/api/auth/login", { data: E2E_ADMIN });
  expect(response.status()).toBe(200);
}

/** From the admin's first screen (signed in by beforeEach), as the owner gets there. */
async function openSettings(page: Page) {
  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  await hydrated(page);
}

let saved: unknown;
test.beforeEach(async ({ page, baseURL }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await signIn(page);
  saved = await (await page.request.get(`${baseURL}/api/admin/settings`)).json();
});
test.afterEach(async ({ page, baseURL }) => {
  const restored = await page.request.put(`${baseURL}/api/admin/settings`, {
    data: saved,
    headers: { Origin: baseURL! },
  });
  expect(restored.status()).toBe(200);
});

test("a refused save names each bad field, keeps what was typed, and saves once corrected", async ({ page }) => {
  await openSettings(page);
  await expectNoAxeViolations(page);

  const email = page.getByLabel("Contact e-mail");
  const phone = page.getByLabel("Phone");
  const linkedin = page.getByLabel("LinkedIn page");
  await email.fill("owner-at-example");
  await phone.fill("+1 (805) 555-0142");
  await linkedin.fill("http://www.linkedin.com/company/ojai-e2e");
  await page.getByRole("button", { name: "Save settings" }).click();

  const alert = page.getByRole("alert");
  await expect(alert).toContainText("Nothing was saved");
  await expect(alert).toContainText("Contact e-mail must be an e-mail address");
  await expect(alert).toContainText("LinkedIn page must be an https:// address");
  await expect(email).toHaveAttribute("aria-invalid", "true");
  await expect(linkedin).toHaveAttribute("aria-invalid", "true");
  await expect(phone).not.toHaveAttribute("aria-invalid", "true");
  await expect(email).toBeFocused();
  await expect(email).toHaveValue("owner-at-example");
  await expect(phone).toHaveValue("+1 (805) 555-0142");
  await expect(linkedin).toHaveValue("http://www.linkedin.com/company/ojai-e2e");
  await expectNoAxeViolations(page);

  await email.fill("owner@ojai.example");
  await linkedin.fill("https://www.linkedin.com/company/ojai-e2e");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Settings saved" })).toBeVisible();
  await expect(page.getByLabel("Phone")).toHaveValue("+1 (805) 555-0142");
  await expectNoAxeViolations(page);

  await page.goto("/about");
  const contact = page.getByRole("region", { name: "Contact" });
  await expect(contact.getByRole("link", { name: "owner@ojai.example" })).toHaveAttribute(
    "href",
    "mailto:owner@ojai.example",
  );
  await expect(contact.getByRole("link", { name: "+1 (805) 555-0142" })).toHaveAttribute("href", "tel:+18055550142");
  const footer = page.locator("footer");
  await expect(footer.getByRole("link", { name: "LinkedIn" })).toHaveAttribute(
    "href",
    "https://www.linkedin.com/company/ojai-e2e",
  );
  await expect(footer.getByRole("link", { name: "Facebook" })).toHaveAttribute("href", "#");
  await expectNoAxeViolations(page);
});

test("a phone number cleared in Settings is gone from the About page, with no placeholder", async ({
  page,
  baseURL,
}) => {
  const set = await page.request.put(`${baseURL}/api/admin/settings`, {
    data: { contactPhone: "805 555 0100" },
    headers: { Origin: baseURL! },
  });
  expect(set.status()).toBe(200);
  await page.goto("/about");
  await expect(page.getByRole("region", { name: "Contact" })).toContainText("805 555 0100");

  await openSettings(page);
  await expect(page.getByLabel("Phone")).toHaveValue("805 555 0100");
  await page.getByLabel("Phone").fill("");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Settings saved" })).toBeVisible();
  await page.goto("/about");
  const contact = page.getByRole("region", { name: "Contact" });
  await expect(contact).not.toContainText("Phone");
  await expect(page.locator('a[href^="tel:"]')).toHaveCount(0);
});

test("Download backup saves one tar file of the whole site", async ({ page }) => {
  await openSettings(page);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download backup" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^site-backup-[\dT-]+Z\.tar$/);
  const file = await download.path();
  const head = fs.readFileSync(file).subarray(0, 512).toString("latin1");
  expect(head.startsWith("ojai-backup/manifest.json")).toBe(true);
  expect(head).toContain("ustar");
  expect(fs.statSync(file).size).toBeGreaterThan(10_000);
});
