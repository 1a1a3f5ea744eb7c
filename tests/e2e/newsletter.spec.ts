import { type APIRequestContext, type Locator, type Page, type TestInfo } from "@playwright/test";
import { connect, type Connection } from "../../app/server/db/db.server";
import { createTestDatabase } from "../support/backend";
import { startServer, TEST_ADMIN, TEST_TOTP_KEY, type TestServer } from "../support/server";
import { mailText, startSmtpServer, type TestSmtpServer } from "../support/smtp";
import {
  DESKTOP,
  expect,
  expectNoAxeViolations,
  hydrated,
  screenshotForReview,
  test,
  useOwnClientAddress,
} from "./fixtures";

/**
 * Issue 46, the newsletter (ADR 072): a visitor signs up with the form at
 * the end of an article, gets one confirmation e-mail, whose link opens a
 * page that changes nothing until its button is pressed; the same address
 * again gets the same answer and no second e-mail that day; a malformed
 * address is refused beside the field, as typed; the footer's form works
 * without JavaScript; and the unsubscribe link of a post's e-mail shows a
 * button that unsubscribes.
 *
 * The e-mails need a mail server, so the file runs a site of its own
 * (booking.spec.ts does the same), on the project's backend, with the
 * sample posts and the test SMTP server; the admin's API tells each
 * subscriber's status.
 */

const ARTICLE = "/blog/building-an-iot-garden-monitor-in-ojai";
const SITE = "Ojai Technology Services";
const FORM_NAME = "Get new posts by e-mail";
const ACCEPTED = "Almost done: check your inbox";
const REFUSED = "Please enter a valid email address.";

let smtp: TestSmtpServer;
let app: TestServer;
let database: { url: string; drop: () => Promise<void> };
/** The site's database, opened here for what no screen or API on this branch does (a post's e-mail option, the job queue). */
let connection: Connection;
/** The owner, signed in to the file's site. */
let admin: APIRequestContext;

test.beforeAll(async ({ backend, playwright }) => {
  smtp = await startSmtpServer();
  database = await createTestDatabase(backend, { migrated: true });
  app = await startServer({
    SMTP_URL: smtp.url,
    SEED_SAMPLE_POSTS: "true",
    DATABASE_URL: database.url,
    ...(backend === "postgres" ? { TOTP_ENCRYPTION_KEY: TEST_TOTP_KEY } : {}),
  });
  connection = connect(
    backend === "postgres" ? { kind: "postgres", url: database.url } : { kind: "sqlite", file: database.url },
  );
  admin = await playwright.request.newContext({ baseURL: app.url });
  expect((await admin.post("/api/auth/login", { data: TEST_ADMIN })).status()).toBe(200);
  // The e-mails go out only with the owner's address in Settings.
  const settings = (await (await admin.get("/api/admin/settings")).json()) as object;
  const saved = await admin.put("/api/admin/settings", { data: { ...settings, contactEmail: "owner@example.com" } });
  expect(saved.status(), await saved.text()).toBe(200);
});

test.afterAll(async () => {
  await admin?.dispose();
  await connection?.db.destroy();
  await app?.stop();
  await smtp?.stop();
  await database?.drop();
});

test.beforeEach(async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
});

let addresses = 0;
const uniqueEmail = (testInfo: TestInfo, who: string) =>
  `${who}.${testInfo.project.name}.${Date.now().toString(36)}${(addresses += 1)}@example.com`;

interface Subscriber {
  id: string;
  email: string;
  status: "pending" | "confirmed" | "unsubscribed";
  consent: string;
}

/** The subscriber with this address, as the owner's API lists it. */
async function subscriberOf(email: string): Promise<Subscriber | undefined> {
  const answer = await admin.get(`/api/admin/subscribers?q=${encodeURIComponent(email)}`);
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as Subscriber[]).find((subscriber) => subscriber.email === email);
}

const mailsTo = (email: string) => smtp.mails.filter((mail) => mail.to.includes(email));

/** The path of the confirmation link in the one e-mail `email` gets, once it has come. */
async function confirmationPath(email: string): Promise<string> {
  await expect.poll(() => mailsTo(email).length, { timeout: 15_000 }).toBe(1);
  const text = mailText(mailsTo(email)[0]!.raw);
  expect(text).toContain(`Subject: Confirm your subscription to ${SITE}`);
  const path = /\/newsletter\/confirm\/[\w.-]+/.exec(text)?.[0];
  expect(path, "the confirmation link").toBeDefined();
  return path!;
}

/** The end-of-article form: the page's one form landmark of that name (the footer's copy is none). */
const articleForm = (page: Page) => page.getByRole("form", { name: FORM_NAME });
const emailField = (scope: Page | Locator) => scope.getByLabel("Email", { exact: true });

test("a visitor signs up at the end of an article and confirms from the e-mail's link", async ({ page }, testInfo) => {
  await useOwnClientAddress(page);
  const email = uniqueEmail(testInfo, "ari");

  await page.goto(`${app.url}${ARTICLE}`);
  const form = articleForm(page);
  await expect(form.getByRole("heading", { level: 2, name: FORM_NAME })).toBeVisible();
  // After the article and its link to /book, before Previous/Next.
  const order = await page.evaluate(() => {
    const main = document.querySelector("main")!;
    const parts = [
      main.querySelector("article"),
      main.querySelector('a[href="/book"]'),
      main.querySelector('form[action="/newsletter"]'),
      main.querySelector('nav[aria-label="More articles"]'),
    ];
    return parts.map((part) => (part ? [...main.querySelectorAll("*")].indexOf(part) : -1));
  });
  expect(order.every((index, i) => index >= 0 && (i === 0 || index > order[i - 1]!))).toBe(true);
  // No two elements of the page share an id, though the footer has a form too.
  const ids = await page.evaluate(() => [...document.querySelectorAll("[id]")].map((element) => element.id));
  expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  await expect(page.locator("footer").getByRole("button", { name: "Subscribe" })).toBeVisible();
  await screenshotForReview(page, "newsletter-1-article");
  await expectNoAxeViolations(page);

  if (testInfo.project.name === "phone") {
    await emailField(form).tap();
    await emailField(form).fill(email);
    await form.getByRole("button", { name: "Subscribe" }).tap();
  } else {
    await emailField(form).click();
    await page.keyboard.type(email);
    await page.keyboard.press("Enter");
  }
  await expect(page).toHaveURL(`${app.url}/newsletter`);
  await expect(page.getByRole("heading", { level: 1, name: ACCEPTED })).toBeVisible();
  await expect(page.getByRole("status")).toContainText("an e-mail with a confirmation link is on its way");
  await hydrated(page);
  await screenshotForReview(page, "newsletter-2-accepted");
  await expectNoAxeViolations(page);

  const path = await confirmationPath(email);
  expect((await subscriberOf(email))?.status).toBe("pending");

  // Opening the link (as a mail scanner would) shows a button and changes nothing.
  const opened = await page.goto(`${app.url}${path}`);
  expect(opened?.status()).toBe(200);
  expect(opened?.headers()["cache-control"]).toContain("no-store");
  expect(opened?.headers()["x-robots-tag"]).toContain("noindex");
  await expect(page.getByRole("heading", { level: 1, name: "Confirm your subscription" })).toBeVisible();
  await expect(page.getByText(`Press the button to start getting ${SITE}'s new posts by e-mail.`)).toBeVisible();
  await screenshotForReview(page, "newsletter-3-confirm");
  await expectNoAxeViolations(page);
  expect((await subscriberOf(email))?.status).toBe("pending");

  const button = page.getByRole("button", { name: "Confirm my subscription" });
  await (testInfo.project.name === "phone" ? button.tap() : button.click());
  await expect(page.getByRole("heading", { level: 1, name: "You are subscribed" })).toBeVisible();
  await expect(page.getByText(`Thank you. ${SITE}'s next post will come to your inbox.`)).toBeVisible();
  await hydrated(page);
  await screenshotForReview(page, "newsletter-4-subscribed");
  await expectNoAxeViolations(page);
  const subscriber = await subscriberOf(email);
  expect(subscriber?.status).toBe("confirmed");
  expect(subscriber?.consent).toBe("form");
  // The link again: nothing more to do.
  await page.goto(`${app.url}${path}`);
  await expect(page.getByText("You are already subscribed. Nothing more to do.")).toBeVisible();
});

test(
  "the same address again gets the same answer and no second e-mail that day",
  DESKTOP,
  async ({ page }, testInfo) => {
    await useOwnClientAddress(page);
    const email = uniqueEmail(testInfo, "bo");
    const signUp = async (typed: string) => {
      await page.goto(`${app.url}/newsletter`);
      await emailField(page.locator("main")).fill(typed);
      await page.locator("main").getByRole("button", { name: "Subscribe" }).click();
      await expect(page.getByRole("heading", { level: 1, name: ACCEPTED })).toBeVisible();
      return page.locator("main").innerText();
    };
    const first = await signUp(email);
    await confirmationPath(email);
    const subscriber = (await subscriberOf(email))!;

    // Again, as typed before and in capitals: one subscription, the same words.
    expect(await signUp(email)).toBe(first);
    expect(await signUp(email.toUpperCase())).toBe(first);
    expect((await subscriberOf(email))?.status).toBe("pending");
    // The sign-up queues the e-mail in its own transaction: none was queued for the second and third.
    const queued = await connection.db
      .selectFrom("jobs")
      .select("payload")
      .where("kind", "=", "newsletter.confirm-mail")
      .execute();
    expect(queued.filter((job) => job.payload.includes(subscriber.id))).toHaveLength(1);
    expect(mailsTo(email)).toHaveLength(1);
  },
);

test("a malformed address is refused beside the field, as typed", DESKTOP, async ({ page }) => {
  await useOwnClientAddress(page);
  await page.goto(`${app.url}${ARTICLE}`);
  const form = articleForm(page);
  // Past the browser's own check of an e-mail field, as a browser without it sends.
  await emailField(form).evaluate((input) => input.removeAttribute("type"));
  await emailField(form).fill("ada at example");
  const [response] = await Promise.all([
    page.waitForResponse((answer) => answer.url() === `${app.url}/newsletter` && answer.request().method() === "POST"),
    form.getByRole("button", { name: "Subscribe" }).click(),
  ]);
  expect(response.status()).toBe(400);
  await expect(page.getByRole("heading", { level: 1, name: "Newsletter" })).toBeVisible();
  const field = emailField(page.locator("main"));
  await expect(field).toHaveValue("ada at example");
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(REFUSED);
  // Focus is on it as the page loads, so a screen reader says the problem at once.
  await expect(field).toBeFocused();
  await expect(page.locator("main").getByText(REFUSED)).toBeVisible();
  await hydrated(page);
  await screenshotForReview(page, "newsletter-5-refused");
  await expectNoAxeViolations(page);

  // Put right, the same form signs up.
  await field.fill("ada@example.com");
  await page.locator("main").getByRole("button", { name: "Subscribe" }).click();
  await expect(page.getByRole("heading", { level: 1, name: ACCEPTED })).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the footer's form signs up", DESKTOP, async ({ page }, testInfo) => {
    await useOwnClientAddress(page);
    const email = uniqueEmail(testInfo, "noa");
    await page.goto(`${app.url}/about`);
    const footer = page.locator("footer");
    await emailField(footer).fill(email);
    // The privacy page's link beside it is plain HTML too.
    await expect(footer.getByRole("link", { name: "How we handle your details" })).toHaveAttribute("href", "/privacy");
    await footer.getByRole("button", { name: "Subscribe" }).click();
    await expect(page.getByRole("heading", { level: 1, name: ACCEPTED })).toBeVisible();
    await confirmationPath(email);
    expect((await subscriberOf(email))?.status).toBe("pending");
  });
});

/**
 * A subscriber, confirmed, and a post e-mailed to the subscribers: its
 * option set, as the editor's box sets it, is published and its mailing sends.
 */
async function confirmedSubscriber(page: Page, email: string) {
  await useOwnClientAddress(page);
  await page.goto(`${app.url}/newsletter`);
  await emailField(page.locator("main")).fill(email);
  await page.locator("main").getByRole("button", { name: "Subscribe" }).click();
  await expect(page.getByRole("heading", { level: 1, name: ACCEPTED })).toBeVisible();
  await page.goto(`${app.url}${await confirmationPath(email)}`);
  await page.getByRole("button", { name: "Confirm my subscription" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "You are subscribed" })).toBeVisible();
}

async function mailPost(title: string) {
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  const draft = { title, slug, excerpt: "News for the subscribers.", content: "The garden monitor, part two." };
  const created = await admin.post("/api/admin/posts", { data: { ...draft, published: true, emailSubscribers: true } });
  expect(created.status(), await created.text()).toBe(201);
}

test("the unsubscribe link of a post's e-mail shows a button that unsubscribes", async ({ page }, testInfo) => {
  const email = uniqueEmail(testInfo, "uma");
  await confirmedSubscriber(page, email);
  const title = `Garden monitor news ${testInfo.project.name} ${Date.now().toString(36)}`;
  await mailPost(title);

  let raw = "";
  await expect
    .poll(() => (raw = mailsTo(email).find((mail) => mailText(mail.raw).includes(title))?.raw ?? ""), {
      timeout: 20_000,
    })
    .not.toBe("");
  const headers = raw.slice(0, raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, " ");
  expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
  const link = /^List-Unsubscribe: <([^>]+)>$/m.exec(headers)?.[1];
  expect(link, "the List-Unsubscribe header").toBeDefined();
  const path = new URL(link!).pathname;
  expect(path).toMatch(/^\/newsletter\/unsubscribe\/[\w.-]+$/);

  // Opening it shows a button and changes nothing.
  const opened = await page.goto(`${app.url}${path}`);
  expect(opened?.status()).toBe(200);
  expect(opened?.headers()["cache-control"]).toContain("no-store");
  await expect(page.getByRole("heading", { level: 1, name: "Unsubscribe from the newsletter" })).toBeVisible();
  await expect(
    page.getByText(`Press the button and ${email} gets no more e-mails from this newsletter.`),
  ).toBeVisible();
  await screenshotForReview(page, "newsletter-6-unsubscribe");
  await expectNoAxeViolations(page);
  expect((await subscriberOf(email))?.status).toBe("confirmed");

  const button = page.getByRole("button", { name: "Unsubscribe" });
  await (testInfo.project.name === "phone" ? button.tap() : button.click());
  await expect(page.getByRole("heading", { level: 1, name: "You are unsubscribed" })).toBeVisible();
  await hydrated(page);
  await screenshotForReview(page, "newsletter-7-unsubscribed");
  await expectNoAxeViolations(page);
  expect((await subscriberOf(email))?.status).toBe("unsubscribed");
  // The link again says so, without a button.
  await page.goto(`${app.url}${path}`);
  await expect(page.getByRole("heading", { level: 1, name: "You are unsubscribed" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Unsubscribe" })).toHaveCount(0);
});

test("/newsletter: the sign-up page", async ({ page }) => {
  await page.goto(`${app.url}/newsletter`);
  await expect(page.getByRole("heading", { level: 1, name: "Newsletter" })).toBeVisible();
  await expect(emailField(page.locator("main"))).toHaveAttribute("type", "email");
  await screenshotForReview(page, "newsletter-0-page");
  await expectNoAxeViolations(page);
});
