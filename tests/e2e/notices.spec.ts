import { type Page } from "@playwright/test";
import { DESKTOP, expect, test, useOwnClientAddress } from "./fixtures";

const notices = (page: Page) => page.getByRole("region", { name: /Notifications/ }).getByRole("listitem");

/** Opens the contact form from the footer; the notification area comes with its code (ADR 018). */
async function openContactForm(page: Page) {
  await page.locator("footer").getByRole("button", { name: "Contact" }).click();
  await expect(page.getByRole("dialog", { name: "Get Started" })).toBeVisible();
}

/** Shows the 'Message Sent' notice the way a visitor does. */
async function sendMessage(page: Page) {
  const form = page.getByRole("dialog", { name: "Get Started" });
  if (!(await form.isVisible())) await openContactForm(page);
  await form.getByLabel("Name").fill("Ada");
  await form.getByLabel("Email").fill("ada@example.com");
  await form.getByRole("button", { name: "Send Message" }).click();
  await expect(form).toBeHidden();
  await expect(notices(page)).toContainText("Message Sent");
}

test.beforeEach(async ({ page }) => {
  await useOwnClientAddress(page);
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/");
});

test("one notice at a time: a new one replaces the old", DESKTOP, async ({ page }) => {
  await page.locator("footer").getByRole("button", { name: "Contact" }).click();
  const form = page.getByRole("dialog", { name: "Get Started" });
  await form.getByLabel("Message").fill("");
  await form.getByRole("button", { name: "Send Message" }).click();
  await expect(notices(page)).toHaveText(/Error: Please fill in all required fields\./);
  await form.getByLabel("Name").fill("Ada");
  await form.getByLabel("Email").fill("ada@example.com");
  await form.getByLabel("Message").fill("Hello");
  await form.getByRole("button", { name: "Send Message" }).click();
  await expect(notices(page)).toHaveCount(1);
  await expect(notices(page)).toContainText("Message Sent");
});

test("a notice stays about 5000 ms, then goes", DESKTOP, async ({ page }) => {
  await openContactForm(page);
  // Timestamps taken in the page when the notice appears and leaves.
  await page.evaluate(() => {
    const times: Record<string, number> = {};
    (window as unknown as { noticeTimes: Record<string, number> }).noticeTimes = times;
    const region = document.querySelector('[role="region"][aria-label^="Notifications"]')!;
    new MutationObserver(() => {
      const shown = region.querySelector("li") !== null;
      if (shown && times.shown === undefined) times.shown = performance.now();
      if (!shown && times.shown !== undefined && times.gone === undefined) times.gone = performance.now();
    }).observe(region, { childList: true, subtree: true });
  });
  await sendMessage(page);
  await expect(notices(page)).toHaveCount(0, { timeout: 9000 });
  const times = await page.evaluate(() => (window as unknown as { noticeTimes: Record<string, number> }).noticeTimes);
  const shownFor = times.gone! - times.shown!;
  expect(shownFor).toBeGreaterThanOrEqual(4900);
  expect(shownFor).toBeLessThan(6500);
});

test("swiping right past 50 px dismisses a notice; a shorter swipe does not", async ({ page }) => {
  await sendMessage(page);
  const box = (await notices(page).boundingBox())!;
  const y = box.y + box.height / 2;
  const x = box.x + 40;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + 20, y, { steps: 4 });
  await page.mouse.move(x + 30, y, { steps: 2 });
  await page.mouse.up();
  await expect(notices(page)).toHaveCount(1);
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + 40, y, { steps: 4 });
  await page.mouse.move(x + 70, y, { steps: 4 });
  await page.mouse.up();
  await expect(notices(page)).toHaveCount(0);
});

test("F8 focuses the notification area", DESKTOP, async ({ page }) => {
  await sendMessage(page);
  await page.keyboard.press("F8");
  const focusedInRegion = await page.evaluate(() => {
    const region = document.querySelector('[role="region"][aria-label^="Notifications"]');
    return Boolean(region && document.activeElement && region.contains(document.activeElement));
  });
  expect(focusedInRegion).toBe(true);
});

test("F8 focuses the notification area on a page where no notice has been shown yet", DESKTOP, async ({ page }) => {
  for (const path of ["/", "/blog", "/about"]) {
    await page.goto(path);
    await page.keyboard.press("F8");
    await expect
      .poll(() =>
        page.evaluate(() => {
          const region = document.querySelector('[role="region"][aria-label^="Notifications"]');
          return Boolean(region && document.activeElement && region.contains(document.activeElement));
        }),
      )
      .toBe(true);
  }
});
