import { request as apiRequest } from "@playwright/test";
import { E2E_ADMIN } from "../../playwright.config";
import { expect, expectNoAxeViolations, hydrated, test } from "./fixtures";

/**
 * Issue 32, Admin > Analytics (ADR 056): the owner sees the period's views,
 * visitors and contact messages, the chart and the tables, picks a period
 * (7, 30, 90 days or one of their own), and exports CSV; axe finds nothing
 * at desktop and phone widths.
 */

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

test.beforeEach(async ({ page }, testInfo) => {
  if (testInfo.project.name === "phone") await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ reducedMotion: "reduce" });
});

test("the owner reads the numbers, changes the period and exports them", async ({ page, site }, testInfo) => {
  test.setTimeout(60_000);
  // A few visits as browsers send them, from a source of this run's own, by two readers.
  const source = `dash-${testInfo.project.name}-${Date.now().toString(36)}.example.org`;
  const visitor = await apiRequest.newContext({ baseURL: site.url });
  for (const path of ["/", "/about", "/blog"]) {
    const answer = await visitor.get(path, {
      headers: {
        accept: "text/html",
        "user-agent": CHROME,
        referer: `https://${source}/`,
        "x-forwarded-for": "192.0.2.100",
      },
    });
    expect(answer.status()).toBe(200);
  }
  // A second reader from another address: a source seen from one address alone is counted under "(other)".
  const second = await visitor.get("/", {
    headers: {
      accept: "text/html",
      "user-agent": CHROME,
      referer: `https://${source}/`,
      "x-forwarded-for": "192.0.2.101",
    },
  });
  expect(second.status()).toBe(200);
  await visitor.dispose();
  expect((await page.request.post("/api/auth/login", { data: E2E_ADMIN })).status()).toBe(200);

  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Analytics", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Analytics" })).toBeVisible();
  await hydrated(page);
  await expect(page.getByText(/Every day is a UTC day/)).toBeVisible();
  await expect(page.getByRole("link", { name: "Last 30 days" })).toHaveAttribute("aria-current", "page");
  // Written in batches every few seconds, and a batch may hold only some of
  // the four views: reload until this run's source shows two visitors and
  // all four views.
  const sources = page.getByRole("table", { name: "Top sources" });
  const row = sources.getByRole("row").filter({ has: page.getByRole("rowheader", { name: source }) });
  await expect(async () => {
    await page.reload();
    await expect(row.getByRole("cell")).toHaveText(["2", "4"], { timeout: 500 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByRole("img", { name: /Views and visitors per day/ })).toBeVisible();
  await expect(page.getByRole("definition").first()).not.toHaveText("0");
  await expectNoAxeViolations(page);

  // The numbers per day, as a table.
  await page.locator("summary", { hasText: "Views, visitors and contact messages per day (UTC)" }).click();
  const days = page.getByRole("table", { name: "Views, visitors and contact messages per day (UTC)" });
  await expect(days.getByRole("row")).toHaveCount(31);
  await expectNoAxeViolations(page);

  await page.getByRole("link", { name: "Last 7 days" }).click();
  await expect(page.getByRole("link", { name: "Last 7 days" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByText(/\(UTC\), 7 days/).first()).toBeVisible();

  // A period of one's own.
  const today = new Date().toISOString().slice(0, 10);
  await page.getByLabel("From (UTC)").fill(today);
  await page.getByLabel("To (UTC)").fill(today);
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page.getByText(`${today} to ${today} (UTC), 1 day`).first()).toBeVisible();
  await expectNoAxeViolations(page);

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: `Export CSV of ${today} to ${today}` }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`analytics-${today}-to-${today}.csv`);
  const csv = await page.request.get(`/api/admin/analytics.csv?from=${today}&to=${today}`);
  const body = await csv.text();
  expect(body).toContain("section,name,views,visitors,messages");
  expect(body).toContain(`source,${source},4,2,`);
});
