import { type Page } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { createTestDatabase, TEST_BACKEND } from "../support/backend";
import { startReceiver, type Receiver } from "../support/receiver";
import { startServer, TEST_ADMIN, TEST_TOTP_KEY, type TestServer } from "../support/server";
import { expect, expectDialogReady, expectNoAxeViolations, screenshotForReview, test as base } from "./fixtures";

/**
 * Admin > Webhooks (issue 43, ADR 068): the owner adds a webhook with the
 * password, copies the secret shown once, sends a test to a real receiver on
 * loopback, sees the delivery log, redelivers, and deletes it after a
 * question. The site runs with OUTBOUND_ALLOW_PRIVATE=true (a receiver on
 * this machine), so this file starts its own per worker in place of the
 * shared one.
 */

const test = base.extend({
  site: [
    async ({ backend }, use, workerInfo) => {
      const kind = backend ?? TEST_BACKEND;
      const database = await createTestDatabase(kind);
      const port = Number(process.env.E2E_PORT ?? 3199) + 40 + workerInfo.parallelIndex;
      const server: TestServer = await startServer({
        DATABASE_URL: database.url,
        PORT: String(port),
        SITE_URL: `http://127.0.0.1:${port}`,
        OUTBOUND_ALLOW_PRIVATE: "true",
        KEEP_ALIVE_SECONDS: "300",
        // Webhook secrets are sealed with this key; PostgreSQL has no key file (ADR 047, 068).
        ...(kind === "postgres" ? { TOTP_ENCRYPTION_KEY: TEST_TOTP_KEY } : {}),
      });
      const stop = async () => {
        await server.stop();
        await database.drop();
      };
      await use({ url: server.url, databaseUrl: database.url, stop });
      await stop();
    },
    { scope: "worker", timeout: 90_000 },
  ],
});

let receiver: Receiver;
test.beforeAll(async () => {
  receiver = await startReceiver();
});
test.afterAll(async () => {
  await receiver?.close();
});

test.beforeEach(async ({ page }, testInfo) => {
  if (testInfo.project.name === "phone") await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ reducedMotion: "reduce" });
  const response = await page.request.post("/api/auth/login", { data: TEST_ADMIN });
  expect(response.status()).toBe(200);
});

async function openWebhooks(page: Page) {
  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Webhooks", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
}

test("the owner adds a webhook, sends a test, redelivers and deletes it", async ({ page, context }, testInfo) => {
  const url = `${receiver.url}/${testInfo.project.name}`;
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await openWebhooks(page);
  await expect(page.getByText("No webhooks yet.")).toBeVisible();
  await expectNoAxeViolations(page);

  const add = page.getByRole("region", { name: "Add a webhook" });
  await add.getByLabel("URL").fill("http://169.254.169.254/latest");
  await add.getByLabel("A message arrives through the contact form").check();
  await add.getByLabel("Your password").fill(TEST_ADMIN.password);
  await add.getByRole("button", { name: "Add webhook" }).click();
  await expect(add.getByRole("alert")).toContainText("not a public address");
  await expectNoAxeViolations(page);

  // What was typed stays; a wrong password is said beside its field, which takes the focus.
  await expect(add.getByLabel("URL")).toHaveValue("http://169.254.169.254/latest");
  await add.getByLabel("URL").fill(url);
  await expect(add.getByLabel("A message arrives through the contact form")).toBeChecked();
  // The keyboard alone ticks a second event.
  await add.getByLabel("A post is published (also a scheduled post, at its time)").focus();
  await page.keyboard.press("Space");
  await add.getByLabel("Your password").fill("not-the-password");
  await add.getByRole("button", { name: "Add webhook" }).click();
  await expect(add.getByLabel("Your password")).toBeFocused();
  await expect(add.getByRole("alert")).toBeVisible();
  await add.getByLabel("Your password").fill(TEST_ADMIN.password);
  await add.getByRole("button", { name: "Add webhook" }).click();

  const secretField = page.getByLabel(`Signing secret for ${url}`);
  await expect(secretField).toBeFocused();
  const secret = await secretField.inputValue();
  expect(secret).toMatch(/^whsec_/);
  await page.getByRole("button", { name: "Copy secret" }).click();
  await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  const card = page.getByRole("listitem").filter({ hasText: url });
  await expect(card).toContainText("post.published, contact.received");
  await expect(card).toContainText("Nothing sent yet.");
  await expectNoAxeViolations(page);
  await screenshotForReview(page, "webhooks-added");

  // A test the receiver refuses, in the log as failed with its answer code.
  const { received } = receiver;
  receiver.status = 500;
  received.length = 0;
  await card.getByRole("button", { name: `Send a test to ${url}` }).click();
  await expect(page.getByRole("status")).toContainText(`The test did not reach ${url}: it answered 500.`);
  const log = card.getByRole("list", { name: `Delivery log of ${url}` });
  const row = log.getByRole("listitem").filter({ hasText: "webhook.test" });
  await expect(row).toContainText("Failed (1 attempt)");
  await expect(row).toContainText("Answer 500");
  expect(received).toHaveLength(1);
  const verified = new Webhook(secret).verify(received[0]!.body, received[0]!.headers as Record<string, string>);
  expect(verified).toMatchObject({ type: "webhook.test" });

  // Redelivered once the receiver is fixed: the same webhook-id, now delivered.
  receiver.status = 204;
  await row.getByRole("button", { name: /^Redeliver webhook\.test of / }).click();
  await expect(page.getByRole("status")).toContainText("Sent again: the receiver answered 204.");
  await expect(row).toContainText("Delivered (2 attempts)");
  await expect(row).toContainText("Answer 204");
  expect(received.map((r) => r.headers["webhook-id"])).toEqual([
    received[0]!.headers["webhook-id"],
    received[0]!.headers["webhook-id"],
  ]);
  await expectNoAxeViolations(page);
  await screenshotForReview(page, "webhooks-log");

  // The secret is not shown again.
  await page.reload();
  await expect(page.getByLabel(`Signing secret for ${url}`)).toHaveCount(0);
  await expect(page.getByText(secret)).toHaveCount(0);

  // Delete asks first; Escape keeps it, the question's Delete removes it.
  const remove = page.getByRole("button", { name: `Delete the webhook to ${url}` });
  await remove.click();
  const question = page.getByRole("alertdialog", { name: "Delete a webhook" });
  await expectDialogReady(question);
  await expectNoAxeViolations(page);
  await page.keyboard.press("Escape");
  await expect(question).toBeHidden();
  await expect(remove).toBeFocused();
  await remove.click();
  await expectDialogReady(question);
  await question.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("status")).toHaveText(`The webhook to ${url} was deleted.`);
  await expect(page.getByText("No webhooks yet.")).toBeVisible();
  await expectNoAxeViolations(page);
});
