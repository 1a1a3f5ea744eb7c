import { type Locator, type Page, type TestInfo } from "@playwright/test";
import { formatCallTime } from "../../app/lib/call-time";
import { DESKTOP, expect, expectNoAxeViolations, hydrated, screenshotForReview, signIn, test } from "./fixtures";

/**
 * Issue 45, the owner's side of booking a call (ADR 071): in Admin >
 * Booking the owner, by the keyboard, changes the time zone, adds a second
 * range on a day and a day off, saves, and finds them kept after a reload; a
 * range that ends before it starts is refused beside its field, with what
 * was typed kept. A call booked through the API is listed under Upcoming
 * calls and arrives in the inbox as a New lead with its time; the owner
 * cancels it there, and the time is offered again.
 *
 * The availability is one setting for the whole site, which other files
 * (booking.spec.ts) change too: the tests here run one after the other,
 * each sets the availability it needs, and each puts back what it found.
 */
test.describe.configure({ mode: "serial" });

async function putAvailability(page: Page, baseURL: string, data: unknown) {
  const answer = await page.request.put("/api/admin/booking", { data, headers: { Origin: baseURL } });
  expect(answer.status(), await answer.text()).toBe(200);
}

/**
 * Presses Tab until `target` has focus: how a keyboard user reaches a field.
 * The element is found once, not at each press: the form is long.
 */
async function tabTo(page: Page, target: Locator, most = 120) {
  const element = await target.elementHandle();
  for (let i = 0; i < most; i += 1) {
    if (await element.evaluate((node) => node === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

const tagFor = (testInfo: TestInfo, what: string) =>
  `${what}${testInfo.project.name}${Date.now().toString(36)}`.toLowerCase().replace(/[^a-z0-9]/g, "");

/** A client address of this test's own (the booking throttle counts per address). */
function ownAddress(testInfo: TestInfo) {
  const project = testInfo.config.projects.findIndex((candidate) => candidate.name === testInfo.project.name);
  return `2001:db8:${(0x4500 + project * 16 + testInfo.workerIndex).toString(16)}:${(Date.now() % 0xffff).toString(16)}::1`;
}

/** The availability each test starts from: Tuesday mornings, in Los Angeles. */
const BASELINE = {
  enabled: true,
  timeZone: "America/Los_Angeles",
  slotMinutes: 30,
  bufferMinutes: 15,
  minNoticeHours: 12,
  horizonDays: 30,
  weekly: [{ day: 2, start: "09:00", end: "12:00" }],
  daysOff: [],
};

let found: unknown;
test.beforeEach(async ({ page, baseURL }, testInfo) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  if (testInfo.project.name === "phone") await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  found = await (await page.request.get(`${baseURL}/api/admin/booking`)).json();
});
test.afterEach(async ({ page, baseURL }) => {
  await putAvailability(page, baseURL!, found);
});

/** Admin > Booking, reached as the owner gets there, ready for the keyboard. */
async function openBooking(page: Page) {
  await page.goto("/admin/messages");
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Booking" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Booking" })).toBeVisible();
  await hydrated(page);
}

test("the owner changes the time zone, adds a range and a day off by the keyboard, and finds them kept", async ({
  page,
  baseURL,
}) => {
  await putAvailability(page, baseURL!, BASELINE);
  await openBooking(page);
  await expect(page.getByRole("link", { name: "See the booking page" })).toHaveAttribute("href", "/book");
  await expectNoAxeViolations(page);

  const zone = page.getByRole("combobox", { name: "Your time zone" });
  const addTuesday = page.getByRole("button", { name: "Add hours on Tuesday" });
  const from2 = page.getByLabel("From (Tuesday, range 2)", { exact: true });
  const to2 = page.getByLabel("To (Tuesday, range 2)", { exact: true });
  const addDayOff = page.getByRole("button", { name: "Add a day off" });
  const dayOff = page.getByLabel("Date (day off 1)", { exact: true });
  const save = page.getByRole("button", { name: "Save", exact: true });

  // The keyboard alone: the select's type-ahead, Enter on buttons, digits into the time and date fields.
  await tabTo(page, zone);
  await page.keyboard.type("Europe/Lisbon");
  await expect(zone).toHaveValue("Europe/Lisbon");
  await tabTo(page, addTuesday);
  await page.keyboard.press("Enter");
  // Focus goes to the new range's first field.
  await expect(from2).toBeFocused();
  await page.keyboard.type("0100P");
  await expect(from2).toHaveValue("13:00");
  await tabTo(page, to2);
  await page.keyboard.type("0500P");
  await expect(to2).toHaveValue("17:00");
  await tabTo(page, addDayOff);
  await page.keyboard.press("Enter");
  await expect(dayOff).toBeFocused();
  await page.keyboard.type("12242030");
  await expect(dayOff).toHaveValue("2030-12-24");
  await tabTo(page, save);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Booking settings saved." })).toBeVisible();
  // The confirmation takes focus, so a screen reader reads it.
  await expect(page.locator(":focus")).toContainText("Booking settings saved.");

  await page.reload();
  await hydrated(page);
  await expect(zone).toHaveValue("Europe/Lisbon");
  await expect(page.getByLabel("From (Tuesday)", { exact: true })).toHaveValue("09:00");
  await expect(from2).toHaveValue("13:00");
  await expect(to2).toHaveValue("17:00");
  await expect(dayOff).toHaveValue("2030-12-24");
  expect(await (await page.request.get("/api/admin/booking")).json()).toMatchObject({
    timeZone: "Europe/Lisbon",
    weekly: [
      { day: 2, start: "09:00", end: "12:00" },
      { day: 2, start: "13:00", end: "17:00" },
    ],
    daysOff: ["2030-12-24"],
  });

  // The save is in the audit log, in the owner's words.
  await page.goto("/admin/audit?action=booking-changed");
  await expect(page.getByRole("listitem").filter({ hasText: "Booking hours changed" }).first()).toBeVisible();
});

test(
  "a range that ends before it starts is refused beside its field, and what was typed is kept",
  DESKTOP,
  async ({ page, baseURL }) => {
    await putAvailability(page, baseURL!, BASELINE);
    await openBooking(page);
    const zone = page.getByRole("combobox", { name: "Your time zone" });
    await zone.selectOption("Asia/Tokyo");
    await page.getByRole("button", { name: "Add a day off" }).click();
    await page.getByLabel("Date (day off 1)", { exact: true }).fill("2030-12-26");

    // Monday's new range starts at 09:00; the owner types an end before it.
    const mondayFrom = page.getByLabel("From (Monday)", { exact: true });
    const mondayTo = page.getByLabel("To (Monday)", { exact: true });
    await tabTo(page, page.getByRole("button", { name: "Add hours on Monday" }));
    await page.keyboard.press("Enter");
    await expect(mondayFrom).toBeFocused();
    await expect(mondayFrom).toHaveValue("09:00");
    await tabTo(page, mondayTo);
    await page.keyboard.type("0800A");
    await expect(mondayTo).toHaveValue("08:00");
    await page.getByRole("button", { name: "Save", exact: true }).click();

    const message = "To (Monday) must be after its start (09:00)";
    const alert = page.getByRole("alert");
    await expect(alert).toContainText("Nothing was saved");
    await expect(alert).toContainText(message);
    await expect(mondayTo).toHaveAttribute("aria-invalid", "true");
    await expect(mondayTo).toHaveAccessibleDescription(message);
    // Focus goes to the field to fix.
    await expect(mondayTo).toBeFocused();
    await expect(mondayFrom).not.toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("To (Tuesday)", { exact: true })).not.toHaveAttribute("aria-invalid", "true");
    // Nothing is lost: the refused range, the zone and the day off are as typed.
    await expect(mondayTo).toHaveValue("08:00");
    await expect(zone).toHaveValue("Asia/Tokyo");
    await expect(page.getByLabel("Date (day off 1)", { exact: true })).toHaveValue("2030-12-26");
    expect(await (await page.request.get("/api/admin/booking")).json()).toMatchObject({
      timeZone: BASELINE.timeZone,
      weekly: BASELINE.weekly,
    });
    await screenshotForReview(page, "booking-admin-refused");
    await expectNoAxeViolations(page);

    // The summary's entry leads to the field; once corrected, the save goes through.
    await page.getByLabel("From (Monday)", { exact: true }).focus();
    await alert.getByRole("link", { name: message }).click();
    await expect(mondayTo).toBeFocused();
    await page.keyboard.type("1100A");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: "Booking settings saved." })).toBeVisible();
    await expect(page.getByRole("alert")).toBeEmpty();
    await expect(page.getByLabel("To (Monday)", { exact: true })).toHaveValue("11:00");
  },
);

test("a call booked on the site is listed under Upcoming calls and is a New lead with its time", async ({
  page,
  baseURL,
}, testInfo) => {
  const everyDay = [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, start: "00:00", end: "23:30" }));
  await putAvailability(page, baseURL!, { ...BASELINE, timeZone: "UTC", minNoticeHours: 0, weekly: everyDay });
  const { slots } = (await (await page.request.get("/api/booking/slots")).json()) as {
    slots: Array<{ start: string }>;
  };
  expect(slots.length).toBeGreaterThan(10);
  // Not the first: a slot starting within seconds could pass before the booking arrives.
  const { start } = slots[10]!;
  const tag = tagFor(testInfo, "call");
  const name = `Bea ${tag}`;
  const booked = await page.request.post("/api/booking", {
    data: { start, name, email: `bea@${tag}.example`, message: `About ${tag}.`, timeZone: "Europe/Paris" },
    headers: { "X-Forwarded-For": ownAddress(testInfo) },
  });
  expect(booked.status(), await booked.text()).toBe(201);
  const when = formatCallTime(start, "UTC");

  await page.goto("/admin/booking");
  const upcoming = page.getByRole("region", { name: "Upcoming calls" });
  const call = upcoming.getByRole("listitem").filter({ hasText: name });
  await expect(call).toContainText(when);
  await screenshotForReview(page, "booking-admin-upcoming");
  await expectNoAxeViolations(page);

  await call.getByRole("link", { name: `Open the lead from ${name}` }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByText(`Call booked for ${when}`)).toBeVisible();
  await expect(page.getByText("Service Interest")).toHaveCount(0);
  await expectNoAxeViolations(page);

  await page.goto(`/admin/messages?status=new&q=${tag}`);
  const card = page.getByRole("article", { name });
  await expect(card.getByText("Status: New")).toBeVisible();
  await expect(card.getByText(`Call booked for ${when}`)).toBeVisible();
  await expect(card.getByText("Service Interest")).toHaveCount(0);
  await screenshotForReview(page, "booking-admin-lead");
  await expectNoAxeViolations(page);

  // The owner cancels it: asked first, then the call is gone from the list and the lead says so.
  await page.goto("/admin/booking");
  const listed = page.getByRole("region", { name: "Upcoming calls" }).getByRole("listitem").filter({ hasText: name });
  await listed.getByText("Cancel the call...").click();
  await listed.getByRole("button", { name: "Yes, cancel the call" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: `The call with ${name} on ${when} is cancelled.` }),
  ).toBeVisible();
  await expect(listed).toHaveCount(0);
  const free = (await (await page.request.get("/api/booking/slots")).json()) as { slots: Array<{ start: string }> };
  expect(free.slots.map((slot) => slot.start)).toContain(start);
  await page.goto(`/admin/messages?status=new&q=${tag}`);
  await expect(page.getByRole("article", { name }).getByText(`Call cancelled (was ${when})`)).toBeVisible();
});
