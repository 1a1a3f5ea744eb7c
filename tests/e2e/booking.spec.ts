import { type APIRequestContext, type Locator, type Page, type TestInfo } from "@playwright/test";
import { formatCallTime } from "../../app/lib/call-time";
import { E2E_ADMIN } from "../../playwright.config";
import { startServer, TEST_ADMIN, type TestServer } from "../support/server";
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
 * Issue 45, booking a call (ADR 071): a visitor in Berlin opens /book, sees
 * the owner's free times in their own zone, books one (by the keyboard
 * alone on the desktop) and sees the confirmation; a second visitor who had
 * the page open and picked the same time is told it was just taken and
 * keeps every word typed; without JavaScript the form books all the same,
 * in the owner's zone; and the link of the visitor's e-mail opens the
 * booking's page, which moves the call and cancels it.
 *
 * The owner takes hour-long calls from 08:00 to 12:00 every day in Los
 * Angeles, with no notice: four slots a day whatever today is. Each test
 * books on a day of its own, chosen by its project (a site's database may
 * outlive one project's run of the file), so no two tests compete for a
 * slot unless they mean to.
 */

const OWNER_ZONE = "America/Los_Angeles";
const VISITOR_ZONE = "Europe/Berlin";
test.use({ timezoneId: VISITOR_ZONE });

const AVAILABILITY = {
  enabled: true,
  timeZone: OWNER_ZONE,
  slotMinutes: 60,
  bufferMinutes: 0,
  minNoticeHours: 0,
  horizonDays: 30,
  weekly: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, start: "08:00", end: "12:00" })),
  daysOff: [],
};

interface Slot {
  start: string;
  end: string;
}

/** Signs `api` in and opens the owner's calendar. */
async function openBooking(api: APIRequestContext, admin: { email: string; password: string }) {
  expect((await api.post("/api/auth/login", { data: admin })).status()).toBe(200);
  const saved = await api.put("/api/admin/booking", { data: AVAILABILITY });
  expect(saved.status(), await saved.text()).toBe(200);
}

/** The test's own day, in the owner's zone: 1 to 9 days ahead, by project and by test. */
function dayFor(testInfo: TestInfo, test: 0 | 1 | 2): string {
  const project = testInfo.config.projects.findIndex((candidate) => candidate.name === testInfo.project.name);
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: OWNER_ZONE }).format(new Date());
  const day = new Date(`${today}T12:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 1 + project * 3 + test);
  return day.toISOString().slice(0, 10);
}

/** The free slots of `day` (in the owner's zone), as the API gives them. */
async function slotsOn(api: APIRequestContext, day: string): Promise<Slot[]> {
  const answer = await api.get(`/api/booking/slots?from=${day}&to=${day}`);
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { slots: Slot[] }).slots;
}

/** The four slots of the test's own day, none booked yet. */
async function freshSlots(api: APIRequestContext, day: string): Promise<Slot[]> {
  const slots = await slotsOn(api, day);
  expect(slots).toHaveLength(4);
  return slots;
}

/** A slot's radio on the page: its time in the group of its day, both as `timeZone` shows them. */
function slotRadio(page: Page, start: string, timeZone: string): Locator {
  const instant = new Date(start);
  const day = new Intl.DateTimeFormat("en-US", { timeZone, weekday: "long", month: "long", day: "numeric" });
  const time = new Intl.DateTimeFormat("en-US", { timeZone, hour: "numeric", minute: "2-digit" });
  return page
    .getByRole("group", { name: day.format(instant), exact: true })
    .getByRole("radio", { name: time.format(instant), exact: true });
}

/** Picks a time as a pointer does: on its label, which is all that shows of the radio. */
async function pick(radio: Locator, how: "click" | "tap" = "click") {
  const label = radio.locator("xpath=..");
  await (how === "tap" ? label.tap() : label.click());
  await expect(radio).toBeChecked();
}

/** A field of the booking form (the footer has an Email field of its own: the newsletter's sign-up). */
const field = (page: Page, label: string) => page.locator("main").getByLabel(label, { exact: true });
const NAME = "Name";
const EMAIL = "Email";
const PHONE = "Phone (optional)";
const NOTE = "What would you like to talk about? (optional)";

/** Presses Tab until `target` has focus: how a keyboard user reaches a field. */
async function tabTo(page: Page, target: Locator, most = 80) {
  for (let i = 0; i < most; i += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

const uniqueEmail = (testInfo: TestInfo, who: string) =>
  `${who}.${testInfo.project.name}.${Date.now().toString(36)}@example.com`;

test.beforeEach(async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
});

test("a visitor sees the free times in their own zone and books one", async ({ page, request }, testInfo) => {
  await useOwnClientAddress(page);
  await openBooking(request, E2E_ADMIN);
  const slot = (await freshSlots(request, dayFor(testInfo, 0)))[1]!;

  // Hydration matches the server's HTML (the owner's zone) before the browser's zone replaces it.
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await page.goto("/book");
  await expect(page.getByRole("heading", { level: 1, name: "Book a call" })).toBeVisible();
  await expect(page.getByText(`Times are shown in your time zone, ${VISITOR_ZONE}.`)).toBeVisible();
  expect(errors).toEqual([]);
  const radio = slotRadio(page, slot.start, VISITOR_ZONE);
  await expect(radio).toHaveValue(slot.start);
  await expect(page.getByRole("main").getByRole("link", { name: "How we handle your details" })).toHaveAttribute(
    "href",
    "/privacy",
  );
  await screenshotForReview(page, "booking-1-page");
  await expectNoAxeViolations(page);

  // What the button says once the form is sent, kept in the tab's session storage across the page load.
  await page.evaluate(() => {
    const button = document.querySelector<HTMLButtonElement>("main button[type=submit]")!;
    new MutationObserver(() => {
      if (button.disabled) sessionStorage.setItem("busy-button", button.textContent ?? "");
    }).observe(button, { attributes: true, childList: true, characterData: true, subtree: true });
  });
  // A slower answer, so the busy button is there a while, as on a slow connection.
  await page.route("**/book", async (route) => {
    if (route.request().method() === "POST") await new Promise((resolve) => setTimeout(resolve, 300));
    await route.continue();
  });

  if (testInfo.project.name === "phone") {
    await pick(radio, "tap");
    await field(page, NAME).fill("Pia Phone");
    await field(page, EMAIL).fill(uniqueEmail(testInfo, "pia"));
    await field(page, NOTE).fill("A new website for the bakery.");
    await page.getByRole("button", { name: "Book the call" }).tap();
  } else {
    // The keyboard alone: Tab into the times, arrows to the one wanted, Tab to each field, Enter.
    await tabTo(page, page.getByRole("radio").first());
    for (let i = 0; i < 100 && !(await radio.isChecked()); i += 1) await page.keyboard.press("ArrowRight");
    await expect(radio).toBeChecked();
    await expect(radio).toBeFocused();
    await tabTo(page, field(page, NAME));
    await page.keyboard.type("Kai Keyboard");
    await tabTo(page, field(page, EMAIL));
    await page.keyboard.type(uniqueEmail(testInfo, "kai"));
    await tabTo(page, field(page, NOTE));
    await page.keyboard.type("A new website for the bakery.");
    await tabTo(page, page.getByRole("button", { name: "Book the call" }));
    await page.keyboard.press("Enter");
  }
  await expect(page.getByRole("heading", { level: 1, name: "Your call is booked" })).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem("busy-button"))).toBe("Booking...");
  await hydrated(page);
  await expect(
    page.getByText(`We look forward to talking with you on ${formatCallTime(slot.start, VISITOR_ZONE)}.`),
  ).toBeVisible();
  await screenshotForReview(page, "booking-2-booked");
  await expectNoAxeViolations(page);
  // The slot is no longer offered.
  expect((await slotsOn(request, dayFor(testInfo, 0))).map((free) => free.start)).not.toContain(slot.start);
});

test(
  "a visitor who picked a time someone has just booked is told so and keeps every word typed",
  DESKTOP,
  async ({ page, request, playwright, baseURL }, testInfo) => {
    await useOwnClientAddress(page);
    await openBooking(request, E2E_ADMIN);
    const [other, taken] = await freshSlots(request, dayFor(testInfo, 1));

    await page.goto("/book");
    await pick(slotRadio(page, taken!.start, VISITOR_ZONE));
    await field(page, NAME).fill("Sam Second");
    await field(page, EMAIL).fill(uniqueEmail(testInfo, "sam"));
    await field(page, PHONE).fill("805 555 0142");
    await field(page, NOTE).fill("Two shops, one website.");

    // Meanwhile another visitor books that time.
    const first = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { "X-Forwarded-For": `2001:db8:45:${testInfo.workerIndex.toString(16)}::1` },
    });
    const booked = await first.post("/api/booking", {
      data: { start: taken!.start, name: "Fay First", email: uniqueEmail(testInfo, "fay") },
    });
    expect(booked.status(), await booked.text()).toBe(201);
    await first.dispose();

    await page.getByRole("button", { name: "Book the call" }).click();
    const alert = page.getByRole("alert");
    await expect(alert).toHaveText("Sorry, that time was just taken. Please pick another; your details are kept.");
    await hydrated(page);
    await expect(alert).toBeFocused();
    await expect(field(page, NAME)).toHaveValue("Sam Second");
    await expect(field(page, EMAIL)).toHaveValue(/^sam\./);
    await expect(field(page, PHONE)).toHaveValue("805 555 0142");
    await expect(field(page, NOTE)).toHaveValue("Two shops, one website.");
    // The slots are read again: the taken one is gone, the others are still there.
    await expect(page.locator(`input[name="start"][value="${taken!.start}"]`)).toHaveCount(0);
    await expect(slotRadio(page, other!.start, VISITOR_ZONE)).toBeVisible();
    await screenshotForReview(page, "booking-3-taken");
    await expectNoAxeViolations(page);

    await pick(slotRadio(page, other!.start, VISITOR_ZONE));
    await page.getByRole("button", { name: "Book the call" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Your call is booked" })).toBeVisible();
  },
);

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the form books the call, in the owner's zone", DESKTOP, async ({ page, request }, testInfo) => {
    await useOwnClientAddress(page);
    await openBooking(request, E2E_ADMIN);
    const slot = (await freshSlots(request, dayFor(testInfo, 2)))[2]!;

    await page.goto("/book");
    await expect(page.getByText(`Times are shown in ${OWNER_ZONE}.`)).toBeVisible();
    await pick(slotRadio(page, slot.start, OWNER_ZONE));
    await field(page, NAME).fill("Nia Noscript");
    await field(page, EMAIL).fill(uniqueEmail(testInfo, "nia"));
    await page.getByRole("button", { name: "Book the call" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Your call is booked" })).toBeVisible();
    await expect(
      page.getByText(`We look forward to talking with you on ${formatCallTime(slot.start, OWNER_ZONE)}.`),
    ).toBeVisible();
  });
});

test.describe("the booking's own page, from the link in the visitor's e-mail", () => {
  let smtp: TestSmtpServer;
  let app: TestServer;
  test.beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await startServer({ SMTP_URL: smtp.url });
  });
  test.afterAll(async () => {
    await app?.stop();
    await smtp?.stop();
  });

  test("moves the call to another time and cancels it, after asking", async ({ page, playwright }, testInfo) => {
    const admin = await playwright.request.newContext({ baseURL: app.url });
    await openBooking(admin, TEST_ADMIN);
    // The e-mails go out only with the owner's address in Settings.
    const settings = (await (await admin.get("/api/admin/settings")).json()) as object;
    const saved = await admin.put("/api/admin/settings", { data: { ...settings, contactEmail: "owner@example.com" } });
    expect(saved.status(), await saved.text()).toBe(200);
    const [slot, later] = await freshSlots(admin, dayFor(testInfo, 0));
    await admin.dispose();

    const email = uniqueEmail(testInfo, "lee");
    await page.goto(`${app.url}/book`);
    await pick(slotRadio(page, slot!.start, VISITOR_ZONE));
    await field(page, NAME).fill("Lee Link");
    await field(page, EMAIL).fill(email);
    await page.getByRole("button", { name: "Book the call" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Your call is booked" })).toBeVisible();

    let path: string | undefined;
    await expect
      .poll(
        () => {
          const mail = smtp.mails.find((received) => received.to.includes(email));
          path = mail && /\/book\/manage\/[\w.-]+/.exec(mailText(mail.raw))?.[0];
          return path;
        },
        { timeout: 15_000 },
      )
      .toBeDefined();

    const response = await page.goto(`${app.url}${path!}`);
    expect(response?.headers()["cache-control"]).toContain("no-store");
    expect(response?.headers()["referrer-policy"]).toBe("no-referrer");
    expect(response?.headers()["x-robots-tag"]).toContain("noindex");
    await expect(page.getByRole("heading", { level: 1, name: "Your booked call" })).toBeVisible();
    await expect(page.getByText(`Your call is on ${formatCallTime(slot!.start, VISITOR_ZONE)}.`)).toBeVisible();
    await screenshotForReview(page, "booking-4-manage");
    await expectNoAxeViolations(page);

    // Another time: the form posts from a page that sends no referrer (its Origin is "null").
    await pick(slotRadio(page, later!.start, VISITOR_ZONE));
    await page.getByRole("button", { name: "Move the call" }).click();
    await expect(page.getByRole("status")).toHaveText(
      `Your call is moved to ${formatCallTime(later!.start, VISITOR_ZONE)}. An updated invitation is on its way.`,
    );
    await expect(page.getByText(`Your call is on ${formatCallTime(later!.start, VISITOR_ZONE)}.`)).toBeVisible();

    // Cancel asks first; Keep it changes nothing.
    await page.getByRole("button", { name: "Cancel the call" }).click();
    await expect(
      page.getByText("Cancel this call? We will let you know by e-mail that it is cancelled."),
    ).toBeFocused();
    await expectNoAxeViolations(page);
    await page.getByRole("link", { name: "Keep it" }).click();
    await expect(page.getByRole("button", { name: "Cancel the call" })).toBeVisible();
    await page.getByRole("button", { name: "Cancel the call" }).click();
    await page.getByRole("button", { name: "Yes, cancel it" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "This call is cancelled" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Book another call" })).toHaveAttribute("href", "/book");

    await page.goto(`${app.url}${path!}`);
    await expect(page.getByRole("heading", { level: 1, name: "This call is cancelled" })).toBeVisible();
    const forged = await page.goto(`${app.url}${path!.slice(0, -4)}0000`);
    expect(forged?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "This link does not work" })).toBeVisible();
  });
});
