import { type Page } from "@playwright/test";
import { bookingPage } from "../../app/content/booking";
import { humorousMessages } from "../../app/content/contact";
import { expect, expectDialogReady, expectNoAxeViolations, test, useOwnClientAddress } from "./fixtures";

const dialog = (page: Page) => page.getByRole("dialog", { name: "Get Started" });
const notice = (page: Page) => page.getByRole("region", { name: /Notifications/ }).getByRole("listitem");

async function openFromFooter(page: Page) {
  await page.locator("footer").getByRole("button", { name: "Contact" }).click();
  await expectDialogReady(dialog(page));
}

async function fillRequired(page: Page) {
  const form = dialog(page);
  await form.getByLabel("Name").fill("Ada Lovelace");
  await form.getByLabel("Email").fill("ada@example.com");
}

test.beforeEach(async ({ page }) => {
  await useOwnClientAddress(page);
  await page.emulateMedia({ reducedMotion: "reduce" });
});

test("opens from the navigation, footer, hero and the About call to action", async ({ page }) => {
  await page.goto("/");
  await page.locator("#hero").getByRole("button", { name: "Get Started" }).click();
  await expectDialogReady(dialog(page));
  // Booking is on (a new site's default): the modal offers a call as another way in.
  await expect(dialog(page).getByRole("link", { name: bookingPage.link })).toHaveAttribute("href", "/book");
  await page.keyboard.press("Escape");
  await openFromFooter(page);
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Open menu" }).click();
  await page.getByRole("dialog", { name: "Menu" }).getByRole("button", { name: "CONTACT" }).click();
  await expectDialogReady(dialog(page));
  await page.keyboard.press("Escape");
  await page.goto("/about");
  const aboutButton = page.getByRole("main").getByRole("button", { name: "Get Started" });
  await aboutButton.click();
  await expectDialogReady(dialog(page));
  // Closing it returns focus to the control that opened it.
  await page.keyboard.press("Escape");
  await expect(dialog(page)).toBeHidden();
  await expect(aboutButton).toBeFocused();
});

test("fields and defaults: Phone, For Media, a humorous message from the list of 10", async ({ page }) => {
  expect(humorousMessages).toHaveLength(10);
  await page.goto("/");
  await openFromFooter(page);
  const form = dialog(page);
  await expect(form.getByLabel("Name")).toHaveValue("");
  await expect(form.getByLabel("Email")).toHaveAttribute("type", "email");
  await expect(form.getByLabel("Phone")).toHaveValue("");
  await expect(form.getByLabel("Preferred Contact Method")).toHaveValue("phone");
  await expect(form.getByLabel("Preferred Contact Method").locator("option")).toHaveText(["Email", "Phone", "Text"]);
  await expect(form.getByLabel("Service Interest")).toHaveValue("media");
  await expect(form.getByLabel("Service Interest").locator("option")).toHaveText([
    "For Media",
    "For Systems",
    "For Research",
  ]);
  const message = await form.getByLabel("Message").inputValue();
  expect(humorousMessages).toContain(message);
  await expect(form.getByRole("button", { name: "Send Message" })).toBeVisible();
  await expect(form.getByRole("link", { name: "How we handle your details" })).toHaveAttribute("href", "/privacy");
  // No native "required" that would block the form's own validation.
  await expect(form.locator("[required]")).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test("missing required fields: error notice, nothing lost, the modal stays open", async ({ page }) => {
  await page.goto("/");
  await openFromFooter(page);
  const form = dialog(page);
  await form.getByLabel("Phone").fill("805 555 0101");
  await form.getByRole("button", { name: "Send Message" }).click();
  await expect(notice(page)).toHaveText(/Error: Please fill in all required fields\./);
  await expect(form).toBeVisible();
  await expect(form.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("Name")).toBeFocused();
  await expect(form.getByLabel("Phone")).toHaveValue("805 555 0101");

  await fillRequired(page);
  await form.getByLabel("Message").fill("   ");
  await form.getByRole("button", { name: "Send Message" }).click();
  await expect(notice(page)).toHaveCount(1);
  await expect(notice(page)).toHaveText(/Error: Please fill in all required fields\./);
  await expect(form.getByLabel("Message")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("Name")).toHaveValue("Ada Lovelace");
  await expectNoAxeViolations(page);
});

test("closing keeps what was typed; Escape and a backdrop click close; page scroll is locked while open", async ({
  page,
  isMobile,
}) => {
  await page.goto("/");
  await page.evaluate(() => window.scrollTo(0, 300));
  await openFromFooter(page);
  await expect(page.locator("body")).toHaveCSS("overflow", "hidden");
  if (!isMobile) {
    const before = await page.evaluate(() => window.scrollY);
    await page.mouse.move(5, 5);
    await page.mouse.wheel(0, 800);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => window.scrollY)).toBe(before);
  }
  await dialog(page).getByLabel("Name").fill("Grace");
  await page.keyboard.press("Escape");
  await expect(dialog(page)).toBeHidden();
  await expect(page.locator("body")).not.toHaveCSS("overflow", "hidden");

  await openFromFooter(page);
  await expect(dialog(page).getByLabel("Name")).toHaveValue("Grace");
  await page.mouse.click(4, 4);
  await expect(dialog(page)).toBeHidden();
});

test("success: 'Message Sent' notice, then the form resets and the modal closes", async ({ page }) => {
  await page.goto("/");
  await openFromFooter(page);
  const form = dialog(page);
  await fillRequired(page);
  await form.getByLabel("Preferred Contact Method").selectOption("email");
  await form.getByLabel("Service Interest").selectOption("research");
  await form.getByLabel("Message").fill("We would like to pilot the garden monitor.");
  await form.getByRole("button", { name: "Send Message" }).click();
  await expect(form).toBeHidden();
  await expect(notice(page)).toContainText("Message Sent");
  await expect(notice(page)).toContainText("Thank you for your message! We will get back to you soon.");
  await expectNoAxeViolations(page);

  await openFromFooter(page);
  await expect(form.getByLabel("Name")).toHaveValue("");
  await expect(form.getByLabel("Email")).toHaveValue("");
  await expect(form.getByLabel("Preferred Contact Method")).toHaveValue("phone");
  await expect(form.getByLabel("Service Interest")).toHaveValue("media");
  expect(humorousMessages).toContain(await form.getByLabel("Message").inputValue());
});
