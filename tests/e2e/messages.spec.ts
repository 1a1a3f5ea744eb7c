import fs from "node:fs";
import { type APIRequestContext, type Page, type TestInfo } from "@playwright/test";
import { DESKTOP, expect, expectNoAxeViolations, hydrated, screenshotForReview, signIn, test } from "./fixtures";

/**
 * Issue 16, the inbox (ADR 035): the owner filters messages by read state,
 * searches by name or e-mail (kept in the address), deletes everything from
 * one sender after a confirm that says how many, exports what the filter
 * shows as CSV, and sees the number of unread messages in the admin
 * navigation. Every project (desktop, phone) shares one server: each test
 * works on messages of its own, found by a tag in their names.
 */

let addresses = 0;
/** Sends a contact message as a visitor from an address of its own (the throttle allows 5 an hour per address). */
async function sendMessage(
  request: APIRequestContext,
  testInfo: TestInfo,
  fields: { name: string; email: string; message?: string; phone?: string },
) {
  addresses += 1;
  const project = testInfo.config.projects.findIndex((candidate) => candidate.name === testInfo.project.name);
  const answer = await request.post("/api/contact", {
    data: { preferredContact: "email", service: "systems", message: `Hello from ${fields.name}.`, ...fields },
    headers: {
      // The throttle counts an IPv6 /64: each message gets one of its own.
      "X-Forwarded-For": `2001:db8:${(0x1600 + project * 16 + testInfo.workerIndex).toString(16)}:${addresses.toString(16)}::1`,
    },
  });
  expect(answer.status(), await answer.text()).toBe(201);
}

/** A tag unique to this test and project, put in the senders' names and addresses. */
const tagFor = (testInfo: TestInfo, what: string) =>
  `${what}${testInfo.project.name}${Date.now().toString(36)}`.toLowerCase();

async function openInbox(page: Page) {
  await page.goto("/admin");
  await page
    .getByRole("navigation", { name: "Admin" })
    .getByRole("link", { name: /^Messages/ })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Messages" })).toBeVisible();
  await hydrated(page);
}

test.beforeEach(async ({ page }, testInfo) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  // The phone project is checked at 390 px, the narrowest common phone width.
  if (testInfo.project.name === "phone") await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
});

test(
  "the read/unread filter and the search narrow the inbox, and the address keeps them",
  DESKTOP,
  async ({ page, request }, testInfo) => {
    const tag = tagFor(testInfo, "filter");
    await sendMessage(request, testInfo, { name: `Ada ${tag}`, email: `ada@${tag}.example` });
    await sendMessage(request, testInfo, { name: `Bob ${tag}`, email: `bob@${tag}.example` });
    await sendMessage(request, testInfo, { name: "Carla Unrelated", email: `carla+${tag}@example.org` });

    await openInbox(page);
    await screenshotForReview(page, "inbox-1-with-messages");
    await expectNoAxeViolations(page);

    await page
      .getByRole("article", { name: `Ada ${tag}` })
      .getByRole("button", { name: "Mark as read" })
      .click();
    await expect(page.getByRole("article", { name: `Ada ${tag}` })).toHaveAttribute("data-read", "true");

    const search = page.getByRole("searchbox", { name: "Search by name or e-mail" });
    await search.fill(tag.toUpperCase());
    await expect(page).toHaveURL(new RegExp(`q=${tag.toUpperCase()}`));
    const list = page.getByRole("main").getByRole("article");
    // The name of two, the address of the third.
    await expect(list).toHaveCount(3);
    await expect(page.getByText(`3 messages match “${tag.toUpperCase()}”.`)).toBeVisible();

    await page.getByRole("combobox", { name: "Show" }).selectOption("unread");
    await expect(page).toHaveURL(/read=unread/);
    await expect(list).toHaveCount(2);
    await expect(page.getByRole("article", { name: `Ada ${tag}` })).toHaveCount(0);
    await expect(search).toHaveValue(tag.toUpperCase());
    await screenshotForReview(page, "inbox-2-filtered");
    await expectNoAxeViolations(page);

    // Reload and Back keep the view: the box shows what was typed.
    await page.reload();
    await hydrated(page);
    await expect(search).toHaveValue(tag.toUpperCase());
    await expect(page.getByRole("combobox", { name: "Show" })).toHaveValue("unread");
    await expect(list).toHaveCount(2);

    await page.getByRole("combobox", { name: "Show" }).selectOption("read");
    await expect(list).toHaveCount(1);
    await expect(page.getByRole("article", { name: `Ada ${tag}` })).toBeVisible();

    // Keyboard: type, Enter asks at once.
    await search.fill("");
    await search.pressSequentially(`no such ${tag}`);
    await search.press("Enter");
    await expect(page.getByText("No messages match.")).toBeVisible();
    await expect(list).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Export CSV" })).toHaveCount(0);
    await screenshotForReview(page, "inbox-3-empty");
    await expectNoAxeViolations(page);

    await page.getByRole("link", { name: "Show all messages" }).click();
    await expect(page).toHaveURL(/\/admin\/messages$/);
    await expect(search).toHaveValue("");
    await expect(page.getByRole("article", { name: `Bob ${tag}` })).toBeVisible();
  },
);

test(
  "delete all from this sender asks first, saying how many, then deletes them all",
  DESKTOP,
  async ({ page, request }, testInfo) => {
    const tag = tagFor(testInfo, "forget");
    await sendMessage(request, testInfo, { name: `Dana ${tag}`, email: `dana@${tag}.example` });
    await sendMessage(request, testInfo, { name: `Dana again ${tag}`, email: `DANA@${tag.toUpperCase()}.example` });
    await sendMessage(request, testInfo, { name: `Eve ${tag}`, email: `eve@${tag}.example` });

    await page.goto(`/admin/messages?q=${tag}`);
    const list = page.getByRole("main").getByRole("article");
    await expect(list).toHaveCount(3);
    // Its name is its heading's: "Unread Dana ...".
    const dana = page.getByRole("article", { name: new RegExp(`^(Unread)?\\s*Dana ${tag}$`) });
    const forget = dana.getByRole("button", { name: "Delete all from this sender (2 messages)" });

    // Cancelled: nothing goes.
    let asked = "";
    page.once("dialog", (dialog) => {
      asked = dialog.message();
      void dialog.dismiss();
    });
    await forget.click();
    await expect.poll(() => asked).toBe(`Delete all 2 messages from dana@${tag}.example? This cannot be undone.`);
    await expect(list).toHaveCount(3);

    page.once("dialog", (dialog) => void dialog.accept());
    await forget.click();
    const outcome = page.getByRole("status").filter({ hasText: "Deleted 2 messages" });
    await expect(outcome).toHaveText(`Deleted 2 messages from dana@${tag}.example.`);
    await expect(outcome).toBeFocused();
    await expect(list).toHaveCount(1);
    await expect(page.getByRole("article", { name: `Eve ${tag}` })).toBeVisible();
    await expect(page.getByRole("searchbox", { name: "Search by name or e-mail" })).toHaveValue(tag);
    await expectNoAxeViolations(page);
  },
);

test(
  "Export CSV downloads the messages the filter shows, UTF-8 with a BOM, formulas neutralised",
  DESKTOP,
  async ({ page, request }, testInfo) => {
    const tag = tagFor(testInfo, "export");
    await sendMessage(request, testInfo, {
      name: `Zoë Ünal ${tag}`,
      email: `zoe@${tag}.example`,
      message: 'Café, "naïve",\nsecond line.',
    });
    await sendMessage(request, testInfo, {
      name: `Formula ${tag}`,
      email: `formula@${tag}.example`,
      message: '=HYPERLINK("http://evil.example","x")',
      phone: "+1 805 555 0100",
    });

    await page.goto(`/admin/messages?q=${tag}`);
    await expect(page.getByRole("main").getByRole("article")).toHaveCount(2);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Export CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^messages-\d{4}-\d\d-\d\dT\d{4}Z\.csv$/);
    const bytes = fs.readFileSync(await download.path());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString("utf8");
    const lines = text.split("\r\n");
    expect(lines[0]).toBe(
      "Received (UTC),Name,Email,Phone,Preferred Contact Method,Service Interest,Message,Read,Read at (UTC),Status,Follow-up,Note,Source page,Source,Campaign",
    );
    // Two messages, the second's message quoted over two lines, and the end of the last record.
    expect(lines).toHaveLength(4);
    expect(text).toContain(`,Formula ${tag},formula@${tag}.example,'+1 805 555 0100,Email,For Systems,`);
    expect(text).toContain(`,"'=HYPERLINK(""http://evil.example"",""x"")",no,`);
    expect(text).toContain(
      `,Zoë Ünal ${tag},zoe@${tag}.example,,Email,For Systems,"Café, ""naïve"",\nsecond line.",no,`,
    );
    // The page is still there, its search too.
    await expect(page.getByRole("searchbox", { name: "Search by name or e-mail" })).toHaveValue(tag);
  },
);

test("the admin navigation says how many messages are unread, on every screen, and follows marking read", async ({
  page,
  request,
}, testInfo) => {
  const tag = tagFor(testInfo, "count");
  await sendMessage(request, testInfo, { name: `Fay ${tag}`, email: `fay@${tag}.example` });
  const unread = async () =>
    Number((await page.request.get("/api/admin/messages?read=unread&limit=1")).headers()["x-total-count"]);
  const nav = page.getByRole("navigation", { name: "Admin" });

  let count = await unread();
  expect(count).toBeGreaterThan(0);
  for (const screen of ["/admin", "/admin/settings", "/admin/messages"]) {
    await page.goto(screen);
    await expect(nav.getByRole("link", { name: `Messages, ${count} unread`, exact: true })).toBeVisible();
  }
  await expectNoAxeViolations(page);

  await page.goto(`/admin/messages?q=${tag}`);
  await page
    .getByRole("article", { name: `Fay ${tag}` })
    .getByRole("button", { name: "Mark as read" })
    .click();
  await expect(page.getByRole("article", { name: `Fay ${tag}` })).toHaveAttribute("data-read", "true");
  count -= 1;
  await expect(
    nav.getByRole("link", { name: count > 0 ? `Messages, ${count} unread` : "Messages", exact: true }),
  ).toBeVisible();

  await page
    .getByRole("article", { name: `Fay ${tag}` })
    .getByRole("button", { name: "Mark as unread" })
    .click();
  count += 1;
  await expect(nav.getByRole("link", { name: `Messages, ${count} unread`, exact: true })).toBeVisible();
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: `Delete message from Fay ${tag}` }).click();
  count -= 1;
  await expect(
    nav.getByRole("link", { name: count > 0 ? `Messages, ${count} unread` : "Messages", exact: true }),
  ).toBeVisible();
  expect(await unread()).toBe(count);
});
