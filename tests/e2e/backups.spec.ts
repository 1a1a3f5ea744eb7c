import { type Page } from "@playwright/test";
import { backupsText } from "~/content/backups";
import { restoreText } from "~/content/backup-restore";
import { startS3Server, type TestS3Server } from "../support/s3";
import { startServer, TEST_ADMIN, type TestServer } from "../support/server";
import {
  DESKTOP,
  expect,
  expectDialogReady,
  expectNoAxeViolations,
  hydrated,
  screenshotForReview,
  test,
} from "./fixtures";

/**
 * Settings' off-site backups and restore, as the owner uses them (ADR 076,
 * ADR 078): "Back up now" stores a backup; a post written after it is gone
 * once the site is restored from that stored backup through the dialog, and
 * everybody, the owner too, is signed out. The HTTP tests check what a
 * restore brings back on each backend; this one checks the screen's path.
 * Its own server and an S3-compatible server (s3rver): a restore replaces
 * every row of the site it runs on, which the worker's site shares with
 * other files.
 */
let s3: TestS3Server;
let server: TestServer;

test.beforeAll(async () => {
  s3 = await startS3Server();
  server = await startServer({ BACKUP_STORAGE_URL: s3.storageUrl("e2e"), OUTBOUND_ALLOW_PRIVATE: "true" });
});
test.afterAll(async () => {
  await server?.stop();
  await s3?.stop();
});

async function signIn(page: Page) {
  expect((await page.request.post(`${server.url}/api/auth/login`, { data: TEST_ADMIN })).status()).toBe(200);
}

/** A published post, made over the API; answers its public path. */
async function publish(page: Page, title: string): Promise<string> {
  const slug = title.toLowerCase().replaceAll(" ", "-");
  const created = await page.request.post(`${server.url}/api/admin/posts`, {
    headers: { Origin: server.url },
    data: {
      title,
      slug,
      excerpt: "A post for the backup's test.",
      content: "Some words.",
      category: "General",
      author: "Ojai Tech",
      publishDate: new Date(Date.now() - 60_000).toISOString(),
      published: true,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return `${server.url}/blog/${slug}`;
}

async function openSettings(page: Page) {
  await page.goto(`${server.url}/admin/settings`);
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  await hydrated(page);
}

test(
  "Back up now stores a backup; restoring it from the list replaces what was written since and signs everybody out",
  DESKTOP,
  async ({ page }) => {
    test.setTimeout(90_000);
    await page.emulateMedia({ reducedMotion: "reduce" });
    await signIn(page);
    // The schedule's first backup, made at start, is stored before anything is written.
    const stored = () => s3.events.filter((event) => event.name.startsWith("ObjectCreated")).length;
    await expect.poll(stored, { timeout: 30_000 }).toBe(1);
    const kept = await publish(page, "Kept by the backup");
    await openSettings(page);
    await expect(page.getByText(/^Last backup: .+ UTC, .+\. It worked\.$/)).toBeVisible();

    // Back up now: the password in a dialog, then word that it started; the job stores this period's backup again.
    await page.getByRole("button", { name: backupsText.button }).click();
    const backupDialog = page.getByRole("alertdialog", { name: backupsText.dialogTitle });
    await expectDialogReady(backupDialog);
    await backupDialog.getByLabel(backupsText.passwordLabel).fill(TEST_ADMIN.password);
    await backupDialog.getByRole("button", { name: backupsText.submit }).click();
    await expect(backupDialog).toBeHidden();
    await expect(page.getByRole("status").filter({ hasText: backupsText.started })).toBeVisible();
    await expect.poll(stored, { timeout: 30_000 }).toBe(2);

    const written = await publish(page, "Written after the backup");
    expect((await page.request.get(written)).status()).toBe(200);

    // Restore from the stored backup: the list loads when that source is chosen.
    const section = page.getByRole("region", { name: restoreText.heading });
    await section.getByRole("radio", { name: restoreText.sourceStored }).check();
    const picker = section.getByRole("combobox", { name: restoreText.storedLabel });
    await expect(picker).toBeEnabled();
    await picker.selectOption({ index: 1 });
    await section.getByRole("button", { name: restoreText.open }).click();
    const dialog = page.getByRole("alertdialog", { name: restoreText.dialogTitle });
    await expectDialogReady(dialog);
    await expect(dialog).toContainText("Everything on the site is replaced by the stored backup of");
    await expectNoAxeViolations(page);
    await screenshotForReview(page, "restore-dialog", { fullPage: false });

    // A wrong password changes nothing and is said under the field, what was typed kept.
    const password = dialog.getByLabel(restoreText.passwordLabel);
    await password.fill("not-my-password");
    await dialog.getByRole("button", { name: restoreText.confirm }).click();
    await expect(password).toHaveAttribute("aria-invalid", "true");
    await expect(password).toHaveValue("not-my-password");
    expect((await page.request.get(written)).status()).toBe(200);

    await password.fill(TEST_ADMIN.password);
    await dialog.getByRole("button", { name: restoreText.confirm }).click();
    const done = page.getByRole("region", { name: restoreText.doneHeading });
    await expect(done).toBeFocused({ timeout: 30_000 });
    await expect(done).toContainText(/^.*\b1 post, 0 images\b/);
    await expect(done).toContainText(restoreText.doneSignedOut);
    await expectNoAxeViolations(page);
    await screenshotForReview(page, "restore-done", { fullPage: false });

    // Signed out, as everybody; the post written since is gone, the one before is there.
    expect((await page.request.get(`${server.url}/api/auth/me`)).status()).toBe(401);
    expect((await page.request.get(written)).status()).toBe(404);
    expect((await page.request.get(kept)).status()).toBe(200);
    await done.getByRole("link", { name: restoreText.signIn }).click();
    await expect(page).toHaveURL(/\/admin\/login$/);
  },
);
