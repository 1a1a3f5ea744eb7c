import { type Page } from "@playwright/test";
import { DESKTOP, expect, expectNoAxeViolations, hydrated, signIn, test } from "./fixtures";

/**
 * Issue 30 (ADR 053): the owner edits the marketing pages in Admin > Pages.
 * A change is a draft nobody else sees, the preview shows it on the real
 * page, Publish makes it public, and the history restores what was there.
 * Desktop and phone share one server: each test puts the pages back as it
 * found them.
 */

async function openEditor(page: Page, title: "Landing page" | "About page" | "Privacy page") {
  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Pages" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Pages" })).toBeVisible();
  await page.getByRole("link", { name: `Edit ${title}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Edit ${title}` })).toBeVisible();
  await hydrated(page);
}

const field = (page: Page, path: string) => page.locator(`[name="${path}"]`);
const status = (page: Page) => page.getByTestId("page-status");

// Each test walks a whole edit with axe at every state of the editor: 50-77 s on a slow day (2026-11-27), more than the default 60 s.
test.describe.configure({ timeout: 150_000 });

let saved: Record<string, unknown> = {};
test.beforeEach(async ({ page, baseURL }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await signIn(page);
  for (const name of ["landing", "about", "privacy"])
    saved[name] = await (await page.request.get(`${baseURL}/api/admin/content/${name}`)).json();
});
test.afterEach(async ({ page, baseURL }) => {
  for (const [name, document] of Object.entries(saved)) {
    const headers = { Origin: baseURL! };
    await page.request.delete(`${baseURL}/api/admin/content/${name}/draft`, { headers });
    const current = await (await page.request.get(`${baseURL}/api/admin/content/${name}`)).json();
    if (JSON.stringify(current) !== JSON.stringify(document)) {
      const put = await page.request.put(`${baseURL}/api/admin/content/${name}`, { data: document, headers });
      expect(put.status()).toBe(200);
    }
  }
  saved = {};
});

test("a price change is a draft, previewed on the real page, then published; a mistake is marked beside its field", async ({
  page,
  context,
}) => {
  await openEditor(page, "Landing page");
  await expect(status(page)).toHaveText("Everything is published");
  await expectNoAxeViolations(page);

  // A mistake: the field says what is wrong, nothing is kept, Publish refuses and goes to it.
  const price = field(page, "media.packages[1].price");
  await price.fill("");
  await expect(page.getByText("Price must not be empty")).toBeVisible();
  await expect(price).toHaveAttribute("aria-invalid", "true");
  await expect(status(page)).toHaveText("Fix the marked fields to keep the draft");
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Fix the marked fields before publishing.")).toBeVisible();
  await expect(price).toBeFocused();

  await price.fill("$2,750");
  await expect(price).not.toHaveAttribute("aria-invalid");
  await expect(status(page)).toContainText("Draft saved");
  await expectNoAxeViolations(page);

  // Visitors still see the published price; the preview shows the draft on the landing page itself.
  const visitor = await context.browser()!.newPage();
  await visitor.goto(new URL("/", page.url()).href);
  await expect(visitor.locator("#media")).toContainText("$2,500");
  await expect(visitor.locator("#media")).not.toContainText("$2,750");

  const popup = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Preview" }).click();
  const preview = await popup;
  await expect(preview.locator("#media")).toContainText("$2,750");
  await expect(preview.getByTestId("preview-notice")).toContainText("Preview of the draft");
  await preview.close();

  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Published: visitors see the new version now.")).toBeVisible();
  await expect(status(page)).toHaveText("Everything is published");
  await visitor.reload();
  await expect(visitor.locator("#media")).toContainText("$2,750");
  await expect(visitor.locator("#media")).not.toContainText("$2,500");

  // Reset the section to the original copy: back to a draft of the original price.
  await page.getByRole("button", { name: "Reset this section to the original copy: For Media" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page);
  await dialog.getByRole("button", { name: "Reset this section to the original copy" }).click();
  await expect(price).toHaveValue("$2,500");
  await expect(status(page)).toContainText("Draft saved");
  await visitor.close();
});

test(
  "a team member's new name is published and the earlier version restored from the history",
  DESKTOP,
  async ({ page }) => {
    await openEditor(page, "About page");
    const name = field(page, "team.members[0].name");
    await name.fill("Ana Ruiz");
    await expect(status(page)).toContainText("Draft saved");

    // A share link shows the draft to someone signed out, until it is revoked.
    const sharing = page.locator("section", { has: page.getByRole("heading", { name: "Share a draft" }) });
    await sharing.getByRole("button", { name: "Create a share link" }).click();
    const link = await sharing.getByLabel("New share link").inputValue();
    const visitor = await page.context().browser()!.newPage();
    await visitor.goto(link);
    await expect(visitor.getByRole("heading", { level: 3, name: "Ana Ruiz" })).toBeVisible();
    await expectNoAxeViolations(page);
    await sharing
      .getByRole("button", { name: /^Revoke the link that expires/ })
      .first()
      .click();
    await expect(sharing.getByText("Link revoked: it no longer opens the page.")).toBeVisible();
    expect((await visitor.goto(link))!.status()).toBe(404);

    await page.getByRole("button", { name: "Publish" }).click();
    await expect(page.getByText("Published: visitors see the new version now.")).toBeVisible();

    await visitor.goto(new URL("/about", page.url()).href);
    const team = visitor.locator("section", { has: visitor.locator("#team-heading") });
    await expect(team.getByRole("heading", { level: 3, name: "Ana Ruiz" })).toBeVisible();
    await expect(team).toContainText("Founder and CEO");

    // The history: the newest earlier version is what the page showed before.
    const history = page.locator("section", { has: page.getByRole("heading", { name: "History" }) });
    await history
      .getByRole("button", { name: /^Show changes/ })
      .first()
      .click();
    await expect(history.getByText("Team › Team members › Team member 1 › Name")).toBeVisible();
    await expectNoAxeViolations(page);
    await history
      .getByRole("button", { name: /^Restore/ })
      .first()
      .click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Restore" }).click();
    await expect(page.getByText(/restored and published/)).toBeVisible();
    await expect(name).toHaveValue("");
    await expectNoAxeViolations(page);

    await visitor.reload();
    await expect(team.getByRole("heading", { level: 3, name: "Ana Ruiz" })).toHaveCount(0);
    await expect(team.getByRole("heading", { level: 3, name: "Founder and CEO" })).toBeVisible();
    await visitor.close();
  },
);

test("lists add, move and remove items with buttons; two tabs on one page get a conflict, not an overwrite", async ({
  page,
  context,
}) => {
  await openEditor(page, "About page");
  const paragraphs = page.getByRole("group", { name: "Paragraphs" }).first();
  await paragraphs.getByRole("button", { name: "Add paragraph" }).click();
  const third = field(page, "mission.paragraphs[2]");
  await expect(third).toHaveAttribute("aria-invalid", "true");
  await third.fill("A third paragraph, moved to the top.");
  await paragraphs.getByRole("button", { name: "Move Paragraph 3 up" }).click();
  await paragraphs.getByRole("button", { name: "Move Paragraph 2 up" }).click();
  await expect(field(page, "mission.paragraphs[0]")).toHaveValue("A third paragraph, moved to the top.");
  await expect(status(page)).toContainText("Draft saved");

  // A second tab opens the same page, with the draft; the first keeps typing; the second's save is refused.
  const second = await context.newPage();
  await second.goto(page.url());
  await hydrated(second);
  await expect(field(second, "mission.paragraphs[0]")).toHaveValue("A third paragraph, moved to the top.");
  await field(page, "mission.heading").fill("Our mission today");
  await expect(status(page)).toContainText("Draft saved");
  await field(second, "mission.heading").fill("Our mission, from the second tab");
  await expect(status(second)).toContainText("changed in another tab or by another administrator");
  await expect(second.getByRole("button", { name: "Publish" })).toBeDisabled();
  await expectNoAxeViolations(second);
  await second.close();

  await paragraphs.getByRole("button", { name: "Remove Paragraph 1" }).click();
  await expect(field(page, "mission.paragraphs[2]")).toHaveCount(0);
  await page.getByRole("button", { name: "Discard draft" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Discard draft" }).click();
  await expect(status(page)).toHaveText("Everything is published");
  await expect(field(page, "mission.heading")).toHaveValue("Our mission");
});

test("the privacy page's notice is edited and published, and /privacy shows it first", async ({ page }) => {
  await openEditor(page, "Privacy page");
  await expect(field(page, "keeps.items[0].name")).toHaveValue("Messages");
  const body = field(page, "keeps.items[0].body");
  await body.fill("Messages stay in our inbox until we delete them.");
  await expect(status(page)).toContainText("Draft saved");
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Published: visitors see the new version now.")).toBeVisible();

  // Public pages are the same signed in or not (ADR 024): this is what visitors see, at this project's size.
  await page.goto("/privacy");
  await expect(page.getByRole("heading", { level: 1, name: "Privacy" })).toBeVisible();
  const notice = page.getByRole("region", { name: "What we keep about you" });
  await expect(notice.getByRole("heading", { level: 3 }).first()).toHaveText("Messages");
  await expect(notice).toContainText("Messages stay in our inbox until we delete them.");
  await expect(page.getByText(/^Last updated /)).toBeVisible();
  await expectNoAxeViolations(page);
});
