import { type APIRequestContext, type Locator, type Page, type TestInfo } from "@playwright/test";
import { DESKTOP, expect, expectNoAxeViolations, hydrated, screenshotForReview, signIn, test } from "./fixtures";

/**
 * Issue 44, the lead desk (ADR 070): a visitor's message arrives as a New
 * lead; the owner finds it under New in the inbox, opens it and, by the
 * keyboard alone, sets a follow-up day and a note and moves it through
 * Contacted and Qualified to Won, after which the inbox lists it under Won
 * with its count. The e2e server has no mail server, so the reply form says
 * why replies cannot be sent. Saved replies and the acknowledgement are set
 * on their own screen. Each test works on messages of its own, found by a
 * tag in their names.
 */

let addresses = 0;
/** Sends a contact message as a visitor from an address of its own (the throttle allows 5 an hour per address). */
async function sendMessage(request: APIRequestContext, testInfo: TestInfo, fields: { name: string; email: string }) {
  addresses += 1;
  const project = testInfo.config.projects.findIndex((candidate) => candidate.name === testInfo.project.name);
  const answer = await request.post("/api/contact", {
    data: { preferredContact: "email", service: "media", message: `Hello from ${fields.name}.`, ...fields },
    headers: {
      "X-Forwarded-For": `2001:db8:${(0x4400 + project * 16 + testInfo.workerIndex).toString(16)}:${addresses.toString(16)}::1`,
    },
  });
  expect(answer.status(), await answer.text()).toBe(201);
}

const tagFor = (testInfo: TestInfo, what: string) =>
  `${what}${testInfo.project.name}${Date.now().toString(36)}`.toLowerCase();

/** Presses Tab until `target` has focus: how a keyboard user reaches a field. */
async function tabTo(page: Page, target: Locator, most = 80) {
  for (let i = 0; i < most; i += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

/** How many messages have a status, as the API counts them. */
async function countWithStatus(page: Page, status: string) {
  const answer = await page.request.get(`/api/admin/messages?status=${status}&limit=1`);
  return Number(answer.headers()["x-total-count"]);
}

/** A YYYY-MM-DD day `days` from today (UTC), and its keystrokes in the en-US date field (month, day, year). */
function dayFromToday(days: number) {
  const day = new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const [year, month, date] = day.split("-");
  return { day, keys: `${month}${date}${year}` };
}

test.beforeEach(async ({ page }, testInfo) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  if (testInfo.project.name === "phone") await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
});

test("a new lead is followed up, noted and won by the keyboard, and the inbox counts it under Won", async ({
  page,
  request,
}, testInfo) => {
  const tag = tagFor(testInfo, "lead");
  const name = `Lena ${tag}`;
  await sendMessage(request, testInfo, { name, email: `lena@${tag}.example` });

  await page.goto("/admin/messages");
  const newCount = await countWithStatus(page, "new");
  await page
    .getByRole("navigation", { name: "Lead status" })
    .getByRole("link", { name: `New (${newCount})` })
    .click();
  await expect(page).toHaveURL(/status=new/);
  const card = page.getByRole("article", { name });
  await expect(card).toBeVisible();
  await expect(card.getByText("Status: New")).toBeVisible();
  await screenshotForReview(page, "leads-1-inbox-new");
  await expectNoAxeViolations(page);

  await card.getByRole("link", { name: `Open the lead from ${name}` }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await hydrated(page);
  await expect(page.getByText("Replies need a mail server: SMTP_URL is not set.")).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Your reply" })).toHaveCount(0);
  await expectNoAxeViolations(page);

  // The keyboard alone from here: Tab to each field, type, Enter or Space to save.
  const status = page.getByRole("combobox", { name: "Status" });
  const followUp = page.getByLabel("Follow-up date");
  const note = page.getByRole("textbox", { name: "Note (only you see it)" });
  const save = page.getByRole("button", { name: "Save", exact: true });
  const saved = page.getByRole("status").filter({ hasText: "Saved." });
  const { day, keys } = dayFromToday(2);

  await tabTo(page, status);
  await page.keyboard.press("ArrowDown");
  await expect(status).toHaveValue("contacted");
  await tabTo(page, followUp);
  await page.keyboard.type(keys);
  await expect(followUp).toHaveValue(day);
  await tabTo(page, note);
  await page.keyboard.type("Wants a quote before Friday.");
  await tabTo(page, save);
  await page.keyboard.press("Enter");
  await expect(saved).toBeVisible();
  // The outcome takes focus, so a screen reader reads it.
  await expect(page.locator(":focus")).toContainText("Saved.");
  await expect(page.getByText(`Follow-up on ${day}`)).toBeVisible();
  await expect(page.getByText("Status: Contacted")).toBeVisible();

  for (const [value, label, key] of [
    ["qualified", "Qualified", "Space"],
    ["won", "Won", "Enter"],
  ] as const) {
    await tabTo(page, status);
    await page.keyboard.press("ArrowDown");
    await expect(status).toHaveValue(value);
    await tabTo(page, save);
    await page.keyboard.press(key);
    await expect(page.getByText(`Status: ${label}`)).toBeVisible();
  }
  await expect(note).toHaveValue("Wants a quote before Friday.");
  await expect(followUp).toHaveValue(day);
  await screenshotForReview(page, "leads-2-lead-won");

  await page.getByRole("link", { name: "Back to the inbox" }).click();
  await hydrated(page);
  const won = await countWithStatus(page, "won");
  const wonLink = page.getByRole("navigation", { name: "Lead status" }).getByRole("link", { name: `Won (${won})` });
  await wonLink.click();
  await expect(page).toHaveURL(/status=won/);
  await expect(wonLink).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("article", { name }).getByText("Status: Won")).toBeVisible();
  await expectNoAxeViolations(page);
});

test(
  "a due follow-up says so in words, and the follow-up order puts it first",
  DESKTOP,
  async ({ page, request }, testInfo) => {
    const tag = tagFor(testInfo, "due");
    await sendMessage(request, testInfo, { name: `Otto ${tag}`, email: `otto@${tag}.example` });
    await sendMessage(request, testInfo, { name: `Ida ${tag}`, email: `ida@${tag}.example` });
    const listed = await (await page.request.get(`/api/admin/messages?q=${tag}`)).json();
    const byName = new Map<string, string>(
      (listed as Array<{ id: string; name: string }>).map((item) => [item.name, item.id]),
    );
    const overdue = dayFromToday(-3).day;
    for (const [who, followUpAt] of [
      [`Otto ${tag}`, overdue],
      [`Ida ${tag}`, dayFromToday(0).day],
    ] as const) {
      const answer = await page.request.patch(`/api/admin/messages/${byName.get(who)}`, { data: { followUpAt } });
      expect(answer.status()).toBe(200);
    }
    await page.goto(`/admin/messages?q=${tag}`);
    await expect(
      page.getByRole("article", { name: `Otto ${tag}` }).getByText(`Follow-up overdue since ${overdue}`),
    ).toBeVisible();
    await expect(page.getByRole("article", { name: `Ida ${tag}` }).getByText("Follow-up due today")).toBeVisible();
    await page.getByRole("combobox", { name: "Order" }).selectOption("follow-up");
    await expect(page).toHaveURL(/sort=follow-up/);
    await expect(page.getByRole("main").getByRole("article").first()).toHaveAccessibleName(new RegExp(`Otto ${tag}`));
    await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAttribute("href", new RegExp(`q=${tag}`));
  },
);

test("saved replies are added, changed and deleted, and the acknowledgement is turned on and off", async ({
  page,
}, testInfo) => {
  const tag = tagFor(testInfo, "saved");
  await page.goto("/admin/messages");
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Saved replies" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Saved replies" })).toBeVisible();
  await hydrated(page);
  await expectNoAxeViolations(page);

  const add = page.getByRole("region", { name: "Add a saved reply" });
  await add.getByRole("textbox", { name: "Name" }).fill(`Call ${tag}`);
  await add.getByRole("textbox", { name: "Text" }).fill("Thank you. When could we call you?");
  await add.getByRole("button", { name: "Add saved reply" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Saved reply “Call ${tag}” added.` })).toBeVisible();
  await expect(add.getByRole("textbox", { name: "Name" })).toHaveValue("");
  await expect(page.getByRole("heading", { level: 3, name: `Call ${tag}` })).toBeVisible();
  await screenshotForReview(page, "leads-3-saved-replies");

  await page
    .getByText("Change", { exact: true })
    .and(page.getByLabel(`Change the saved reply “Call ${tag}”`))
    .click();
  const name = page.locator("input[name=name]:visible").last();
  await name.fill(`Callback ${tag}`);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("heading", { level: 3, name: `Callback ${tag}` })).toBeVisible();

  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: `Delete the saved reply “Callback ${tag}”` }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved reply deleted." })).toBeVisible();
  await expect(page.getByRole("heading", { level: 3, name: `Callback ${tag}` })).toHaveCount(0);

  const enabled = page.getByRole("checkbox", { name: "Send each new sender an acknowledgement" });
  await expect(page.getByRole("textbox", { name: "Its text" })).toHaveAttribute("placeholder", /Hello \{name\},/);
  await enabled.check();
  await page.getByRole("button", { name: "Save acknowledgement" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Acknowledgements are on." })).toBeVisible();
  await expect(enabled).toBeChecked();
  await enabled.uncheck();
  await page.getByRole("button", { name: "Save acknowledgement" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Acknowledgements are off." })).toBeVisible();
  await expectNoAxeViolations(page);
});
