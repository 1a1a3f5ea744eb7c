import fs from "node:fs";
import { type Page, type TestInfo } from "@playwright/test";
import { E2E_ADMIN } from "../../playwright.config";
import { insertRows } from "../support/insert-rows";
import { mailingRow, subscriberRow } from "../support/newsletter-rows";
import { postRow } from "../support/post-row";
import { DESKTOP, expect, expectNoAxeViolations, hydrated, screenshotForReview, test } from "./fixtures";

/**
 * Issue 46, the owner's Subscribers screen (Admin > Subscribers, ADR 072):
 * the summary by status, the list filtered by status and searched by
 * address (in the address, and without the page's script), Remove after a
 * second step, an import with consent whose rows arrive confirmed and whose
 * bad line is named, the CSV export, and the posts e-mailed with their
 * numbers. Rows are put straight into the site's database, each test's
 * addresses marked with a tag of its own: desktop and phone may share a site.
 */

const tagFor = (testInfo: TestInfo, what: string) =>
  `${what}${testInfo.project.name}${Date.now().toString(36)}`.toLowerCase().replace(/[^a-z0-9]/g, "");

test.beforeEach(async ({ page }, testInfo) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  if (testInfo.project.name === "phone") await page.setViewportSize({ width: 390, height: 844 });
  const response = await page.request.post("/api/auth/login", { data: E2E_ADMIN });
  expect(response.status()).toBe(200);
});

/** Four subscribers, one in each status and way of coming, all with `tag` in their address. */
async function seedSubscribers(databaseUrl: string, tag: string) {
  await insertRows(databaseUrl, "subscribers", [
    subscriberRow(`ann.${tag}@example.com`, "confirmed", { days: 10 }),
    subscriberRow(`bob.${tag}@example.com`, "confirmed", { consent: "import", days: 8 }),
    subscriberRow(`cat.${tag}@example.com`, "pending", { days: 2 }),
    subscriberRow(`dan.${tag}@example.com`, "unsubscribed", { days: 6 }),
  ]);
}

/** The table's rows of subscribers (not its header row). */
const rowsOf = (page: Page) => page.getByRole("row").filter({ has: page.getByRole("cell") });

test("the owner reads the summary, filters by status, searches by address and sees the posts e-mailed", async ({
  page,
  site,
}, testInfo) => {
  const tag = tagFor(testInfo, "sub");
  await seedSubscribers(site.databaseUrl, tag);
  const sending = postRow(`mailed-${tag}`, new Date().toISOString());
  const done = postRow(`done-${tag}`, new Date(Date.now() - 3 * 86_400_000).toISOString());
  await insertRows(site.databaseUrl, "posts", [sending, done]);
  await insertRows(site.databaseUrl, "newsletter_mailings", [
    mailingRow(done.id, { status: "done", recipients: 40, sent: 39, failed: 1 }),
    mailingRow(sending.id, { status: "sending", recipients: 41, sent: 12, failed: 0 }),
  ]);

  // Reached as the owner gets there: Clients > Subscribers.
  await page.goto("/admin/messages");
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Subscribers" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Subscribers" })).toBeVisible();
  await hydrated(page);
  // The other tests of this site (the other project's too) add subscribers at any moment: the
  // summary's figures are at least this test's own (the HTTP test checks them exactly).
  const summary = page.getByText(/^\d+ confirmed, \d+ pending, \d+ unsubscribed$/);
  await expect(summary).toBeVisible();
  const [confirmed, pending, unsubscribed] = (
    /^(\d+) confirmed, (\d+) pending, (\d+) unsubscribed$/.exec((await summary.textContent()) ?? "")?.slice(1) ?? []
  ).map(Number);
  expect(confirmed).toBeGreaterThanOrEqual(2);
  expect(pending).toBeGreaterThanOrEqual(1);
  expect(unsubscribed).toBeGreaterThanOrEqual(1);

  // The search follows the box, and the address keeps it.
  const search = page.getByRole("searchbox", { name: "Search by address" });
  await search.fill(tag);
  await expect(page).toHaveURL(new RegExp(`/admin/subscribers\\?q=${tag}$`));
  await expect(page.getByText("4 subscribers.", { exact: true })).toBeVisible();
  const rows = rowsOf(page);
  await expect(rows).toHaveCount(4);
  // Newest first: the pending one signed up two days ago.
  await expect(rows.first()).toContainText(`cat.${tag}@example.com`);
  const bob = rows.filter({ hasText: `bob.${tag}@` });
  await expect(bob).toContainText("Confirmed");
  await expect(bob).toContainText("Import");
  await screenshotForReview(page, "subscribers");
  await expectNoAxeViolations(page);

  // The status filter, in words.
  const status = page.getByRole("combobox", { name: "Status" });
  await status.selectOption({ label: "Pending" });
  await expect(page).toHaveURL(new RegExp(`status=pending&q=${tag}$`));
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`cat.${tag}@example.com`);
  await expect(rows.first()).toContainText("Pending");
  await expect(rows.first()).toContainText("Form");
  await expect(rows.first()).toContainText("Not yet");
  await status.selectOption({ label: "Unsubscribed" });
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`dan.${tag}@example.com`);
  await expect(rows.first()).toContainText(/Unsubscribed \w+ \d+, \d{4}/);

  // Nothing matching, and the way back to everyone.
  await status.selectOption({ label: "All" });
  await search.fill(`nobody-${tag}`);
  await expect(page.getByText("No subscribers match.")).toBeVisible();
  await expect(rows).toHaveCount(0);
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: "Show all subscribers" }).click();
  await expect(page).toHaveURL(/\/admin\/subscribers$/);
  await expect(search).toHaveValue("");

  // The posts e-mailed: each with its numbers, the one under way says so; the title finds the post.
  const mailings = page.getByRole("region", { name: "Posts e-mailed" });
  const underWay = mailings.getByRole("listitem").filter({ hasText: `mailed-${tag}` });
  await expect(underWay).toContainText("Sending...");
  await expect(underWay.getByRole("definition")).toHaveText(["41", "12", "0"]);
  const finished = mailings.getByRole("listitem").filter({ hasText: `done-${tag}` });
  await expect(finished).toContainText("Done");
  await expect(finished.getByRole("definition")).toHaveText(["40", "39", "1"]);
  await finished.getByRole("link", { name: `done-${tag}` }).click();
  await expect(page).toHaveURL(new RegExp(`/admin\\?q=done-${tag}$`));
  await expect(page.getByRole("cell", { name: `done-${tag}` })).toBeVisible();
});

test.describe("without the page's script", () => {
  test.use({ javaScriptEnabled: false });

  test("the filter and the search are a form of the address", DESKTOP, async ({ page, site }, testInfo) => {
    const tag = tagFor(testInfo, "nojs");
    await seedSubscribers(site.databaseUrl, tag);
    await page.goto("/admin/subscribers");
    await page.getByRole("searchbox", { name: "Search by address" }).fill(tag);
    await page.getByRole("combobox", { name: "Status" }).selectOption({ label: "Confirmed" });
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/status=confirmed/);
    const rows = rowsOf(page);
    await expect(rows).toHaveCount(2);
    await expect(page.getByText("2 subscribers.", { exact: true })).toBeVisible();
    // "All" sends status=all, the same view as none.
    await page.getByRole("combobox", { name: "Status" }).selectOption({ label: "All" });
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/status=all/);
    await expect(rows).toHaveCount(4);
  });
});

test("the owner removes a subscriber after confirming, and the audit log says so", async ({ page, site }, testInfo) => {
  const tag = tagFor(testInfo, "rm");
  await seedSubscribers(site.databaseUrl, tag);
  await page.goto(`/admin/subscribers?q=${tag}`);
  const rows = rowsOf(page);
  await expect(rows).toHaveCount(4);
  const ann = rows.filter({ hasText: `ann.${tag}@` });
  // The first step only asks.
  await ann.getByText(`Remove ann.${tag}@example.com`, { exact: true }).click();
  await expect(ann.getByText(`Remove ann.${tag}@example.com from the list?`)).toBeVisible();
  await expect(rows).toHaveCount(4);
  await ann.getByRole("button", { name: "Yes, remove" }).click();

  const notice = page.getByRole("status").filter({ hasText: `ann.${tag}@example.com was removed from the list.` });
  await expect(notice).toBeVisible();
  // The row and its button are gone: the notice has focus, so a screen reader reads it.
  await expect(page.locator(":focus")).toContainText("was removed from the list.");
  await expect(rows).toHaveCount(3);
  await expect(rows.filter({ hasText: `ann.${tag}@` })).toHaveCount(0);
  const left = await page.request.get(`/api/admin/subscribers?q=ann.${tag}`);
  expect(await left.json()).toEqual([]);
  await expectNoAxeViolations(page);

  await page.goto("/admin/audit?action=subscriber-removed");
  await expect(page.getByRole("listitem").filter({ hasText: "Subscriber removed" }).first()).toBeVisible();
});

test("an import with consent adds confirmed subscribers and names the bad line", async ({ page }, testInfo) => {
  const tag = tagFor(testInfo, "imp");
  await page.goto("/admin/subscribers");
  const section = page.getByRole("region", { name: "Import from CSV" });
  const yes = section.getByRole("radio", { name: /These people asked to get the newsletter/ });
  const no = section.getByRole("radio", { name: /Send each a confirmation e-mail first/ });
  // No default: the owner says which.
  await expect(yes).not.toBeChecked();
  await expect(no).not.toBeChecked();
  await expect(yes).toHaveAttribute("required", "");

  await section.getByLabel("CSV file").setInputFiles({
    name: "list.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(
      `email,name\r\nFay.${tag}@Example.com,Fay\r\nnot-an-address,Nobody\r\ngus.${tag}@example.com,Gus\r\n`,
    ),
  });
  await yes.check();
  await section.getByRole("button", { name: "Import" }).click();
  const outcome = section.getByRole("status");
  await expect(outcome).toContainText("Added 2 (2 confirmed, 0 pending); 0 already on the list.");
  await expect(outcome).toContainText('Line 3: "not-an-address" is not an e-mail address');
  await expect(page.locator(":focus")).toContainText("Added 2");
  await expectNoAxeViolations(page);

  await page.getByRole("searchbox", { name: "Search by address" }).fill(tag);
  await expect(page).toHaveURL(new RegExp(`\\?q=${tag}$`));
  const rows = rowsOf(page);
  await expect(rows).toHaveCount(2);
  for (const name of ["fay", "gus"]) {
    const row = rows.filter({ hasText: `${name}.${tag}@example.com` });
    await expect(row).toContainText("Confirmed");
    await expect(row).toContainText("Import");
  }

  // The same file again: both are on the list already.
  await section.getByLabel("CSV file").setInputFiles({
    name: "list.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`fay.${tag}@example.com\r\n`),
  });
  await no.check();
  await section.getByRole("button", { name: "Import" }).click();
  await expect(outcome).toContainText("Added 0 (0 confirmed, 0 pending); 1 already on the list.");
});

test("a file that is not text is refused, and says so", DESKTOP, async ({ page }) => {
  await page.goto("/admin/subscribers");
  const section = page.getByRole("region", { name: "Import from CSV" });
  await section.getByLabel("CSV file").setInputFiles({
    name: "photo.csv",
    mimeType: "text/csv",
    buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
  });
  await section.getByRole("radio", { name: /Send each a confirmation e-mail first/ }).check();
  await section.getByRole("button", { name: "Import" }).click();
  await expect(section.getByRole("alert")).toHaveText("The file is not a CSV text file. Save it as CSV and try again.");
});

test("Export CSV downloads every subscriber's address", async ({ page, site }, testInfo) => {
  const tag = tagFor(testInfo, "csv");
  await seedSubscribers(site.databaseUrl, tag);
  await page.goto("/admin/subscribers");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Export CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^subscribers-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = fs.readFileSync(await download.path(), "utf8");
  expect(csv.startsWith("\uFEFFemail,status,consent,created_at,confirmed_at,unsubscribed_at\r\n")).toBe(true);
  for (const name of ["ann", "bob", "cat", "dan"]) expect(csv).toContain(`${name}.${tag}@example.com`);
  expect(csv).toMatch(new RegExp(`bob\\.${tag}@example\\.com,confirmed,import,`));
});
