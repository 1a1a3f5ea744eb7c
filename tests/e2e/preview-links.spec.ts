import { E2E_ADMIN } from "../../playwright.config";
import { expect, expectNoAxeViolations, screenshotForReview, signIn, test } from "./fixtures";

/**
 * Share links of drafts (issue 18, ADR 044): from the editor, a link that a
 * person without an account opens in their own browser; revoked, it is a 404.
 */

test("a draft's share link: made in the editor, copied, opened signed out with its notice and noindex, revoked to a 404", async ({
  page,
  browser,
}, testInfo) => {
  await signIn(page, { openAdmin: true });
  const title = `Shared for review ${testInfo.project.name} ${Date.now().toString(36)}`;

  // A new post has nothing to share yet.
  await page.getByRole("button", { name: "Create New Post" }).click();
  const share = page.getByRole("region", { name: "Share a draft" });
  await expect(share).toContainText("Save the post first to share it.");
  await expect(share.getByRole("button")).toHaveCount(0);
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Excerpt").fill("A draft for a reviewer.");
  await page.getByLabel("Content").fill("## What we plan\n\nThe body of the **draft**.");
  await page.getByRole("button", { name: "Save" }).click();
  const row = page.getByRole("row").filter({ hasText: title });
  await expect(row.getByRole("cell", { name: "Draft" })).toBeVisible();

  // Saved: the section makes links.
  await row.getByRole("button", { name: "Edit" }).click();
  await expect(page.getByRole("heading", { name: "Edit Post" })).toBeVisible();
  await expect(share.getByText("No live share links.")).toBeVisible();
  await share.getByRole("button", { name: "Create a share link" }).click();
  await expect(share.getByText("Share link created. Copy it now: it is shown only once.")).toBeVisible();
  const field = share.getByLabel("New share link");
  await expect(field).toHaveAttribute("readonly", "");
  const url = await field.inputValue();
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/blog\/preview\/[\w-]{43}$/);
  await expect(share.getByRole("listitem")).toHaveCount(1);
  await expect(share.getByRole("listitem")).toContainText(`by ${E2E_ADMIN.email}`);

  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await share.getByRole("button", { name: "Copy link" }).click();
  await expect(share.getByText("Link copied.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  await share.scrollIntoViewIfNeeded();
  await screenshotForReview(page, "editor-share", { fullPage: false });
  await expectNoAxeViolations(page);

  // Someone without an account, in their own browser.
  const { viewport, userAgent, deviceScaleFactor, isMobile, hasTouch } = testInfo.project.use;
  const reader = await browser.newContext({ viewport, userAgent, deviceScaleFactor, isMobile, hasTouch });
  try {
    const readerPage = await reader.newPage();
    const opened = await readerPage.goto(url);
    expect(opened?.status()).toBe(200);
    expect(opened?.headers()["x-robots-tag"]).toBe("noindex, nofollow");
    expect(opened?.headers()["cache-control"]).toBe("private, no-store");
    await expect(readerPage.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(readerPage.getByRole("heading", { level: 2, name: "What we plan" })).toBeVisible();
    await expect(readerPage.getByTestId("preview-notice")).toHaveText(
      /^Preview: not published yet\. Please do not share this link further; it expires on \w+ \d{1,2}, \d{4}\.$/,
    );
    await expect(readerPage.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
    await expect(readerPage.locator('link[rel="canonical"]')).toHaveCount(0);
    // A draft has no place in the list yet: no Previous/Next.
    await expect(readerPage.getByRole("button", { name: /^Previous/ })).toHaveCount(0);
    await readerPage.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
    await screenshotForReview(readerPage, "share-link-reader");
    await expectNoAxeViolations(readerPage);

    // Revoked in the editor: the reader's next load is a 404.
    await share.getByRole("button", { name: /^Revoke the link that expires/ }).click();
    await expect(share.getByText("Link revoked: it no longer opens the post.")).toBeVisible();
    await expect(share.getByText("No live share links.")).toBeVisible();
    await expect(share.getByLabel("New share link")).toHaveCount(0);
    const gone = await readerPage.reload();
    expect(gone?.status()).toBe(404);
    await expect(readerPage.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    await expect(readerPage.getByText(title)).toHaveCount(0);
  } finally {
    await reader.close();
  }
});
