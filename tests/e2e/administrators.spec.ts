import fs from "node:fs";
import path from "node:path";
import { type Page } from "@playwright/test";
import { E2E_ADMIN } from "../../playwright.config";
import { expect, expectNoAxeViolations, hydrated, signIn, test, useOwnClientAddress } from "./fixtures";

/**
 * Issue 17 (ADR 038): the owner invites a colleague, who joins from the link
 * in a browser of their own; both see each other; the owner removes them.
 * Inviting and removing ask the password in the same form or dialog, and a
 * removed administrator's invitations stop working (issue 28, ADR 046).
 * The Audit screen shows the sign-in and the post save. Every project
 * (desktop, phone) shares one server: each uses e-mails of its own.
 * With SCREENSHOT_DIR set, the desktop run also saves each screen at 1280
 * and 390 px wide there.
 */

const shotsDir = process.env.SCREENSHOT_DIR;

async function screenshots(page: Page, name: string) {
  if (!shotsDir || test.info().project.name !== "desktop") return;
  fs.mkdirSync(shotsDir, { recursive: true });
  const original = page.viewportSize()!;
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 });
    await page.screenshot({ path: path.join(shotsDir, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(original);
}

test.beforeEach(async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await signIn(page, { openAdmin: true });
});

test("invite a colleague, who joins in their own browser; both are listed; the owner removes them", async ({
  page,
  browser,
}, info) => {
  // Two browsers, eight page states and axe on six of them: longer than one screen's test.
  test.slow();
  const email = `colleague-${info.project.name}@example.com`;
  const name = `Colleague ${info.project.name}`;
  // Its wrong passwords count on an address of its own (the sign-in throttle).
  await useOwnClientAddress(page);

  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Administrators" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Administrators" })).toBeVisible();
  await hydrated(page);
  await expect(page.getByText("The only administrator cannot be removed")).toBeVisible();
  await expectNoAxeViolations(page);

  // The invitation asks the inviter's password in the same form: a wrong one is explained beside it, nothing typed lost.
  await page.getByLabel("Their e-mail address").fill(email);
  const invitePassword = page.getByLabel("Your password", { exact: true });
  await invitePassword.fill("not-my-password");
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: /./ })).toHaveText("The password is not correct");
  await expect(invitePassword).toBeFocused();
  await expect(invitePassword).toHaveAccessibleDescription("The password is not correct");
  await expect(page.getByLabel("Their e-mail address")).toHaveValue(email);
  await expect(page.getByRole("region", { name: "Pending invitations" }).getByText(email)).toHaveCount(0);
  await expectNoAxeViolations(page);
  await screenshots(page, "administrators-invite-wrong-password");
  await invitePassword.fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  const linkBox = page.getByLabel(`Invitation link for ${email}`);
  await expect(linkBox).toBeVisible();
  const link = await linkBox.inputValue();
  expect(link).toMatch(/\/admin\/invite\/[\w-]{32,}$/);
  await expect(page.getByRole("region", { name: "Pending invitations" }).getByText(email)).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshots(page, "administrators-invite-link");

  // The colleague, in a browser of their own.
  const theirs = await browser.newContext({ ...info.project.use, baseURL: undefined });
  const colleague = await theirs.newPage();
  await colleague.goto(link);
  await hydrated(colleague);
  await expect(colleague.getByRole("heading", { level: 1, name: "Join as an administrator" })).toBeVisible();
  await expect(colleague.getByText(email)).toBeVisible();
  await expectNoAxeViolations(colleague);
  await screenshots(colleague, "invite-acceptance");
  await colleague.getByLabel("Your name").fill(name);
  await colleague.getByLabel(/^Password/).fill("colleague-password-1");
  await colleague.getByLabel("Repeat the password").fill("colleague-password-1");
  await colleague.getByRole("button", { name: "Join and sign in" }).click();
  await expect(colleague.getByRole("heading", { level: 1, name: "Blog Admin" })).toBeVisible();
  await colleague.goto(new URL("/admin/administrators", link).href);
  await expect(colleague.getByText(E2E_ADMIN.email)).toBeVisible();
  await expect(colleague.getByText(`${name}(you)`)).toBeVisible();
  // The colleague invites someone in turn, with their own password.
  const friend = `friend-${info.project.name}@example.com`;
  await colleague.getByLabel("Their e-mail address").fill(friend);
  await colleague.getByLabel("Your password", { exact: true }).fill("colleague-password-1");
  await colleague.getByRole("button", { name: "Invite", exact: true }).click();
  const friendLink = await colleague.getByLabel(`Invitation link for ${friend}`).inputValue();

  // The link worked once.
  const again = await theirs.newPage();
  await again.goto(link);
  await expect(again.getByRole("heading", { level: 1, name: "Invitation already used" })).toBeVisible();
  await expectNoAxeViolations(again);
  await again.close();

  // The owner sees both, and removes the colleague after confirming.
  await page.reload();
  await hydrated(page);
  await expect(page.getByRole("heading", { level: 2, name: "2 administrators" })).toBeVisible();
  await expect(page.getByText(name)).toBeVisible();
  const pending = page.getByRole("region", { name: "Pending invitations" });
  await expect(pending.getByText(email, { exact: true })).toHaveCount(0);
  // The colleague's own invitation is pending, in their name.
  await expect(pending.getByText(`Invited by ${email}`)).toBeVisible();
  await expectNoAxeViolations(page);
  // Removing asks the question and the password in one dialog; a wrong password keeps it open, explained.
  const removeButton = page.getByRole("button", { name: `Remove ${name}` });
  await removeButton.click();
  const dialog = page.getByRole("alertdialog", { name: "Remove an administrator" });
  await expect(dialog).toContainText(`Remove ${name} as an administrator?`);
  const removePassword = dialog.getByLabel("Your password, to confirm");
  await expect(removePassword).toBeFocused();
  await removePassword.fill("not-my-password");
  // The shell's data reloads after a refusal: held back here, so Escape below comes while it is on its way.
  const reloadHeld = /\/admin\/administrators\.data\?_routes=/;
  await page.route(reloadHeld, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await dialog.getByRole("button", { name: "Remove", exact: true }).click();
  await expect(dialog.getByRole("alert")).toHaveText("The password is not correct");
  await expect(removePassword).toBeFocused();
  await expect(removePassword).toHaveAccessibleDescription("The password is not correct");
  await expect(removePassword).toHaveValue("not-my-password");
  await expectNoAxeViolations(page);
  await screenshots(page, "administrators-remove-dialog");
  // Escape cancels: nothing changed, focus back on the row's button.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(removeButton).toBeFocused();
  await page.unrouteAll({ behavior: "wait" });
  await expect(page.getByRole("heading", { level: 2, name: "2 administrators" })).toBeVisible();
  await removeButton.click();
  await dialog.getByLabel("Your password, to confirm").fill(E2E_ADMIN.password);
  await dialog.getByRole("button", { name: "Remove", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status")).toContainText(`${email} was removed and signed out.`);
  await expect(page.getByRole("heading", { level: 2, name: "1 administrator" })).toBeVisible();
  await expect(pending.getByText(friend, { exact: true })).toHaveCount(0);

  // The colleague's next request finds them signed out, and the invitation they made no longer works.
  await colleague.goto(new URL("/admin", link).href);
  await expect(colleague).toHaveURL(/\/admin\/login$/);
  await colleague.goto(friendLink);
  await expect(colleague.getByRole("heading", { level: 1, name: "Invitation withdrawn" })).toBeVisible();
  await theirs.close();
});

test("the Audit screen shows the sign-in and the post save, and filters them", async ({ page, baseURL }, info) => {
  const slug = `audited-${info.project.name}`;
  const saved = await page.request.post(`${baseURL}/api/admin/posts`, {
    headers: { Origin: baseURL! },
    data: {
      title: `Audited ${info.project.name}`,
      slug,
      excerpt: "Seen in the audit log",
      content: "Body.",
      category: "Ops",
      readTime: "1 min read",
      published: false,
      publishDate: new Date().toISOString(),
      headerImage: null,
    },
  });
  expect(saved.status()).toBe(201);

  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Audit" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Audit" })).toBeVisible();
  await hydrated(page);
  const entries = page.getByRole("listitem").filter({ hasText: E2E_ADMIN.email });
  await expect(entries.filter({ hasText: "Signed in" }).first()).toBeVisible();
  // The network the sign-in came from, never the full address (the browser is on loopback).
  await expect(entries.filter({ hasText: "Signed in" }).first()).toContainText("from 127.0.0.0/24");
  await expect(page.locator("li[data-action]").filter({ hasText: "127.0.0.1" })).toHaveCount(0);
  await expect(entries.filter({ hasText: `Post created · ${slug}` })).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshots(page, "audit");

  await page.getByLabel("Action").selectOption({ label: "Post created" });
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/action=post-created/);
  await expect(page.locator("li[data-action]").filter({ hasNotText: "Post created" })).toHaveCount(0);
  await expect(page.getByText(`Post created · ${slug}`)).toBeVisible();
  await expectNoAxeViolations(page);

  const { id } = (await saved.json()) as { id: string };
  const deleted = await page.request.delete(`${baseURL}/api/admin/posts/${id}`, { headers: { Origin: baseURL! } });
  expect(deleted.status()).toBe(204);
});
