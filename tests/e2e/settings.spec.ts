import fs from "node:fs";
import path from "node:path";
import { type Download, type Page } from "@playwright/test";
import { E2E_ADMIN } from "../../playwright.config";
import {
  DESKTOP,
  expect,
  expectDialogReady,
  expectNoAxeViolations,
  hydrated,
  signIn,
  test,
  useOwnClientAddress,
} from "./fixtures";

/**
 * Issue 16: the owner edits the site's details in Admin > Settings and sees
 * them on the public pages; a mistake is explained by its field and nothing
 * typed is lost; "Download backup" gives the whole site as one file, once
 * the password is given again in a dialog (ADR 046).
 * Every project (desktop, phone) shares one server: each test puts the
 * settings back as it found them.
 */

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

test(
  "a phone number cleared in Settings is gone from the About page, with no placeholder",
  DESKTOP,
  async ({ page, baseURL }) => {
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
  },
);

/** With SCREENSHOT_DIR set, the desktop run saves the page as it is at 1280 and 390 px wide, as backup-<name>-<width>.png. */
async function screenshots(page: Page, name: string) {
  const dir = process.env.SCREENSHOT_DIR;
  if (!dir || test.info().project.name !== "desktop") return;
  fs.mkdirSync(dir, { recursive: true });
  const original = page.viewportSize()!;
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 });
    await page.screenshot({ path: path.join(dir, `backup-${name}-${width}.png`) });
  }
  await page.setViewportSize(original);
}

test(
  "Download backup asks the password in a dialog, refuses a wrong one in place, then saves one tar file",
  DESKTOP,
  async ({ page }) => {
    // Its wrong password counts on an address of its own (the sign-in throttle, ADR 046).
    await useOwnClientAddress(page);
    await openSettings(page);
    const downloads: Download[] = [];
    page.on("download", (download) => downloads.push(download));

    // Escape closes the question and gives focus back to the button.
    const opener = page.getByRole("button", { name: "Download backup" });
    await opener.click();
    const dialog = page.getByRole("alertdialog", { name: "Download a backup" });
    await expectDialogReady(dialog);
    const password = dialog.getByLabel("Your password, to confirm");
    await expect(password).toBeFocused();
    await expect(dialog).toContainText("every administrator's password hash");
    await expectNoAxeViolations(page);
    await screenshots(page, "dialog");
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();

    // A wrong password: no file, the page stays, the refusal under the field with what was typed kept.
    await page.keyboard.press("Enter");
    await expectDialogReady(dialog);
    await password.fill("not-my-password");
    await page.keyboard.press("Enter");
    await expect(password).toHaveAccessibleDescription("The password is not correct");
    await expect(dialog.getByRole("alert")).toHaveText("The password is not correct");
    await expect(password).toBeFocused();
    await expect(password).toHaveValue("not-my-password");
    await expect(password).toHaveAttribute("aria-invalid", "true");
    await expect(page).toHaveURL(/\/admin\/settings$/);
    expect(downloads).toEqual([]);
    await expectNoAxeViolations(page);
    await screenshots(page, "refused");

    // The right one: the browser downloads the file; the dialog closes and says so.
    await password.fill(E2E_ADMIN.password);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      dialog.getByRole("button", { name: "Download", exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^site-backup-[\dT-]+Z\.tar$/);
    const file = await download.path();
    const head = fs.readFileSync(file).subarray(0, 512).toString("latin1");
    expect(head.startsWith("ojai-backup/manifest.json")).toBe(true);
    expect(head).toContain("ustar");
    expect(fs.statSync(file).size).toBeGreaterThan(10_000);
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
    await expect(page.getByRole("status").filter({ hasText: "The backup is downloading" })).toBeVisible();
    expect(downloads).toHaveLength(1);
    // The cookie that told the page is gone once read.
    expect(await page.evaluate(() => document.cookie)).not.toContain("backup-started");
    await expectNoAxeViolations(page);
    await screenshots(page, "started");

    // The Audit screen lists the download.
    await page.goto("/admin/audit?action=backup-downloaded");
    const entry = page.getByRole("listitem").filter({ hasText: download.suggestedFilename() }).first();
    await expect(entry).toContainText("Backup downloaded");
    await expect(entry).toContainText(E2E_ADMIN.email);
  },
);
