import { type Page } from "@playwright/test";
import { E2E_ADMIN } from "../../playwright.config";
import { startServer, TEST_ADMIN, type TestServer } from "../support/server";
import { mailText, startSmtpServer, type TestSmtpServer } from "../support/smtp";
import { DESKTOP, expect, expectNoAxeViolations, test, useOwnClientAddress } from "./fixtures";

const dialog = (page: Page) => page.getByRole("dialog", { name: "Get Started" });
const notice = (page: Page) => page.getByRole("region", { name: /Notifications/ }).getByRole("listitem");

async function fillForm(page: Page, name: string) {
  await page.locator("footer").getByRole("button", { name: "Contact" }).click();
  const form = dialog(page);
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Email").fill("lead@example.com");
  await form.getByLabel("Phone").fill("805 555 0142");
  await form.getByLabel("Preferred Contact Method").selectOption("text");
  await form.getByLabel("Service Interest").selectOption("systems");
  await form.getByLabel("Message").fill(`Hello from ${name}. Please call after 3 pm.`);
  return form;
}

async function dismissNotice(page: Page) {
  await notice(page).getByRole("button", { name: "Dismiss notification" }).click();
  await expect(notice(page)).toHaveCount(0);
}

async function signIn(page: Page, credentials: { email: string; password: string }) {
  await page.goto("/admin/login");
  await page.getByLabel("E-mail").fill(credentials.email);
  await page.getByLabel("Password").fill(credentials.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Blog Admin" })).toBeVisible();
}

test.beforeEach(async ({ page }) => {
  await useOwnClientAddress(page);
  await page.emulateMedia({ reducedMotion: "reduce" });
});

test("a message goes from the form to the admin's Messages view, which marks it read and deletes it", async ({
  page,
}, testInfo) => {
  const name = `Visitor ${testInfo.project.name} ${Date.now()}`;
  await page.goto("/");
  const form = await fillForm(page, name);
  await form.getByRole("button", { name: "Send Message" }).click();
  await expect(form).toBeHidden({ timeout: 10_000 });
  await expect(notice(page)).toContainText("Message Sent");

  await signIn(page, E2E_ADMIN);
  await page.getByRole("link", { name: "Messages" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Messages" })).toBeVisible();
  const item = page.getByRole("article", { name: name });
  await expect(item).toContainText("Unread");
  await expect(item).toContainText("lead@example.com");
  await expect(item).toContainText("805 555 0142");
  await expect(item).toContainText("Text");
  await expect(item).toContainText("For Systems");
  await expect(item).toContainText(`Hello from ${name}. Please call after 3 pm.`);
  await expectNoAxeViolations(page);

  await item.getByRole("button", { name: "Mark as read" }).click();
  await expect(item).toHaveAttribute("data-read", "true");
  await expect(item.getByRole("button", { name: "Mark as unread" })).toBeVisible();
  await item.getByRole("button", { name: "Mark as unread" }).click();
  await expect(item).toHaveAttribute("data-read", "false");

  page.once("dialog", (confirm) => confirm.accept());
  await item.getByRole("button", { name: `Delete message from ${name}` }).click();
  await expect(page.getByRole("article", { name })).toHaveCount(0);
});

test(
  "when the server cannot take the message, the visitor sees an error and keeps every word",
  DESKTOP,
  async ({ page }) => {
    await page.goto("/");
    const form = await fillForm(page, "Offline visitor");

    await page.route("**/api/contact", (route) => route.abort("internetdisconnected"));
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(notice(page)).toContainText("Your message could not be sent");
    await expect(form).toBeVisible();
    await expect(form.getByLabel("Name")).toHaveValue("Offline visitor");
    await expect(form.getByLabel("Message")).toHaveValue("Hello from Offline visitor. Please call after 3 pm.");
    await expect(form.getByLabel("Preferred Contact Method")).toHaveValue("text");
    await expect(form.getByRole("button", { name: "Send Message" })).toBeEnabled();
    await expectNoAxeViolations(page);
    // Dismiss the notice, as a visitor would, before sending again.
    await dismissNotice(page);

    await page.unroute("**/api/contact");
    await page.route("**/api/contact", (route) => route.fulfill({ status: 503, body: "Service Unavailable" }));
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(notice(page)).toContainText("could not be sent right now");
    await expect(form.getByLabel("Phone")).toHaveValue("805 555 0142");
    await dismissNotice(page);

    await page.unroute("**/api/contact");
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(form).toBeHidden({ timeout: 10_000 });
    await expect(notice(page)).toContainText("Message Sent");
  },
);

test("a throttled address is told so and keeps its text", DESKTOP, async ({ page, playwright, baseURL }) => {
  const address = await useOwnClientAddress(page);
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { "X-Forwarded-For": address } });
  for (let i = 0; i < 5; i++) {
    const answer = await api.post("/api/contact", {
      data: {
        name: `Burst ${i}`,
        email: "burst@example.com",
        preferredContact: "email",
        service: "media",
        message: "Hi",
      },
    });
    expect(answer.status()).toBe(201);
  }
  await api.dispose();
  await page.goto("/");
  const form = await fillForm(page, "Sixth message");
  await form.getByRole("button", { name: "Send Message" }).click();
  await expect(notice(page)).toContainText("Error: Too many messages from your address. Please try again later.");
  await expect(form.getByLabel("Name")).toHaveValue("Sixth message");
});

test.describe("with e-mail notices", () => {
  let smtp: TestSmtpServer;
  let app: TestServer;
  test.beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await startServer({ SMTP_URL: smtp.url, CONTACT_NOTIFY_TO: "leads@example.com" });
  });
  test.afterAll(async () => {
    await app?.stop();
    await smtp?.stop();
  });

  test("the message reaches the database, the admin view and the SMTP server", DESKTOP, async ({ page }, testInfo) => {
    const name = `Mailed visitor ${testInfo.project.name}`;
    await page.goto(app.url + "/");
    const form = await fillForm(page, name);
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(notice(page)).toContainText("Message Sent");

    await expect
      .poll(() => smtp.mails.filter((m) => mailText(m.raw).includes(name)).length, { timeout: 15_000 })
      .toBe(1);
    const mail = mailText(smtp.mails.find((m) => mailText(m.raw).includes(name))!.raw);
    expect(mail).toContain(`Hello from ${name}. Please call after 3 pm.`);
    expect(mail).toContain("Preferred Contact Method: Text");

    await page.goto(app.url + "/admin/login");
    await page.getByLabel("E-mail").fill(TEST_ADMIN.email);
    await page.getByLabel("Password").fill(TEST_ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Blog Admin" })).toBeVisible();
    await page.goto(app.url + "/admin/messages");
    const item = page.getByRole("article", { name });
    await expect(item).toContainText(`Hello from ${name}. Please call after 3 pm.`);
    await expect(item).toContainText("E-mail notice: sent");
  });
});
