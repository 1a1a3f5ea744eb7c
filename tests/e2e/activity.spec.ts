import { startServer, TEST_ADMIN, type TestServer } from "../support/server";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp";
import { freePort } from "../support/ports";
import { expect, expectNoAxeViolations, hydrated, test } from "./fixtures";

/**
 * Admin > Activity (ADR 067): a contact notice that failed on every attempt
 * (its mail server down; JOB_DELAY_SCALE shortens the back-off) is listed
 * with its error and counted beside Activity in the navigation; once the
 * mail server is back, Retry sends it and the list and the count empty.
 * A server of its own, since the shared site has no mail server to break.
 */

let app: TestServer;
let smtp: TestSmtpServer | undefined;
let port: number;
test.beforeAll(async () => {
  port = await freePort();
  app = await startServer({
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    CONTACT_NOTIFY_TO: "leads@example.com",
    JOB_DELAY_SCALE: "0.0002",
  });
});
test.afterAll(async () => {
  await app?.stop();
  await smtp?.stop();
});

test.beforeEach(async ({ page }, testInfo) => {
  if (testInfo.project.name === "phone") await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ reducedMotion: "reduce" });
});

test("the owner sees a failed notice with its error and the count, and retries it", async ({ page }) => {
  const sent = await page.request.post(`${app.url}/api/contact`, {
    data: {
      name: "Failing Notice",
      email: "lead@example.com",
      preferredContact: "email",
      service: "systems",
      message: "Please call me back.",
    },
  });
  expect(sent.status()).toBe(201);
  expect((await page.request.post(`${app.url}/api/auth/login`, { data: TEST_ADMIN })).status()).toBe(200);
  await expect
    .poll(async () => (await (await page.request.get(`${app.url}/api/admin/jobs?status=failed`)).json()).length, {
      timeout: 20_000,
    })
    .toBe(1);

  await page.goto(`${app.url}/admin`);
  const nav = page.getByRole("navigation", { name: "Admin" });
  await nav.getByRole("link", { name: "Activity, 1 failed" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Activity" })).toBeVisible();
  await hydrated(page);
  await expect(page.getByText("1 failed job.")).toBeVisible();
  const item = page.getByRole("list", { name: "Failed jobs" }).getByRole("listitem");
  await expect(item).toContainText("Notice e-mail of a message");
  await expect(item).toContainText("after 6 attempts");
  await expect(item).toContainText("ECONNREFUSED");
  await expectNoAxeViolations(page);

  smtp = await startSmtpServer(port);
  await item.getByRole("button", { name: /^Retry Notice e-mail of a message that failed / }).click();
  await expect(page.getByRole("status")).toHaveText(
    "Notice e-mail of a message queued again. It runs within a few seconds; if it fails again it is listed here.",
  );
  await expect(nav.getByRole("link", { name: "Activity", exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
  await expect.poll(() => smtp!.mails.length, { timeout: 10_000 }).toBe(1);
  await page.reload();
  await expect(page.getByText("Nothing has failed.")).toBeVisible();
  await expect(page.getByRole("list", { name: "Failed jobs" })).toHaveCount(0);
  await expectNoAxeViolations(page);
});
