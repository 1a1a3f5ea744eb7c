import { type Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { E2E_ADMIN } from "../../playwright.config";
import { expect, expectNoAxeViolations, hydrated, screenshotForReview, test, useOwnClientAddress } from "./fixtures";

/**
 * Issue 17: the owner turns on two-factor sign-in on the Account screen,
 * signs in with a code from the app (computed here from the secret the
 * screen shows) or a recovery code; a code used once is refused. Turning it
 * on or off asks the password in the same form, and turning it on signs out
 * the account's other sessions (issue 28, ADR 046). Every project shares one
 * server and one administrator: each test leaves 2FA off.
 * With SCREENSHOT_DIR set, each state is saved there for a person to look at.
 */

const STEP_MS = 30_000;
const totpCode = (secret: string, timestamp = Date.now()) =>
  new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp });

async function enterPassword(page: Page) {
  await page.goto("/admin/login");
  await page.getByLabel("E-mail").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function openAccount(page: Page) {
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Account" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
  await hydrated(page);
}

async function signOut(page: Page) {
  await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
}

test.beforeEach(async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  // The phone project at the narrowest common phone width.
  if ((page.viewportSize()?.width ?? 0) < 600) await page.setViewportSize({ width: 390, height: 844 });
});

/** Recovery codes not used by the test: the clean-up signs in with one if the test ended signed out. */
let spareRecoveryCodes: string[] = [];

test.afterEach(async ({ page, baseURL }) => {
  // Whatever happened, the shared administrator is left with 2FA off for the other tests.
  const headers = { Origin: baseURL! };
  const disable = () =>
    page.request.post(`${baseURL}/api/auth/2fa/disable`, { data: { password: E2E_ADMIN.password }, headers });
  if ((await disable()).status() === 401 && spareRecoveryCodes.length > 0) {
    const code = spareRecoveryCodes.pop();
    await page.request.post(`${baseURL}/api/auth/login`, { data: { ...E2E_ADMIN, code }, headers });
    await disable();
  }
  spareRecoveryCodes = [];
});

test("turn on 2FA, then sign in with a code, refuse the same code again, sign in with a recovery code", async ({
  page,
  playwright,
  baseURL,
}) => {
  // Many steps, each a full page load and a password hash: generous on a busy machine.
  test.setTimeout(120_000);
  // Its wrong passwords count on an address of its own (the sign-in throttle, ADR 046).
  await useOwnClientAddress(page);
  // Another browser signed in to the same account: turning 2FA on signs it out.
  const other = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL! } });
  expect((await other.post("/api/auth/login", { data: E2E_ADMIN })).status()).toBe(200);
  await enterPassword(page);
  await expect(page.getByRole("heading", { level: 1, name: "Blog Admin" })).toBeVisible();
  await openAccount(page);
  await expect(page.getByText("Off.", { exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshotForReview(page, "account-2fa-off");

  // Turning it on asks the password, in the same form (ADR 046): a wrong one is explained beside the field.
  const setupPassword = page.getByLabel("Your password, to turn it on");
  await setupPassword.fill("not-my-password");
  await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  await expect(page.getByRole("alert")).toHaveText("The password is not correct");
  await expect(setupPassword).toBeFocused();
  await expect(setupPassword).toHaveAttribute("aria-invalid", "true");
  await expect(setupPassword).toHaveAccessibleDescription("The password is not correct");
  await expect(setupPassword).toHaveValue("not-my-password");
  await expect(page.getByRole("img", { name: /QR code/ })).toHaveCount(0);
  await expectNoAxeViolations(page);
  await screenshotForReview(page, "account-2fa-wrong-password");
  await setupPassword.fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  const qr = page.getByRole("img", { name: /QR code/ });
  await expect(qr).toBeVisible();
  expect(await qr.getAttribute("src")).toMatch(/^data:image\/svg\+xml;base64,/);
  const secret = (await page.getByTestId("totp-secret").textContent())!.replace(/\s/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expectNoAxeViolations(page);
  await screenshotForReview(page, "account-2fa-setup");

  // A wrong code first: explained, and the setup stays.
  const codeField = page.getByLabel("Code from the app");
  await codeField.fill(totpCode(secret) === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "Confirm and turn on" }).click();
  await expect(page.getByRole("alert")).toContainText("not valid");
  await expect(codeField).toBeFocused();

  await codeField.fill(totpCode(secret));
  await page.getByRole("button", { name: "Confirm and turn on" }).click();
  await expect(page.getByRole("heading", { name: "Save your recovery codes now" })).toBeVisible();
  // Six groups of four letters: 120 bits each (ADR 047).
  const codes = (await page.locator("ol li").allTextContents()).filter((text) =>
    /^(?:[0-9a-z]{4}-){5}[0-9a-z]{4}$/.test(text),
  );
  expect(codes).toHaveLength(10);
  spareRecoveryCodes = codes.slice(1);
  const download = page.getByRole("link", { name: "Download as a text file" });
  expect(decodeURIComponent((await download.getAttribute("href"))!)).toContain(codes[0]);
  await expectNoAxeViolations(page);
  await screenshotForReview(page, "account-recovery-codes");
  await expect(page.getByRole("status").filter({ hasText: "Two-factor sign-in is on." })).toContainText(
    "Your other sessions were signed out.",
  );
  expect((await other.get("/api/auth/me")).status()).toBe(401);
  await other.dispose();
  await page.getByRole("link", { name: "I have saved them" }).click();
  await expect(page.getByText("On", { exact: true })).toBeVisible();

  // Sign out; the password alone now leads to the code step.
  await signOut(page);
  await enterPassword(page);
  await expect(page.getByRole("heading", { level: 1, name: "Two-factor sign-in" })).toBeVisible();
  const code = page.getByLabel("Code", { exact: true });
  await expect(code).toBeFocused();
  await expect(code).toHaveAttribute("autocomplete", "one-time-code");
  await expect(code).toHaveAttribute("inputmode", "numeric");
  await expect(page.getByLabel("Password")).toBeHidden();
  await expectNoAxeViolations(page);
  await screenshotForReview(page, "sign-in-code-step");

  // The code that turned 2FA on is used; the next step's code (one step of drift) signs in.
  const signInCode = totpCode(secret, Date.now() + STEP_MS);
  await code.fill(signInCode);
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Blog Admin" })).toBeVisible();

  // The same code again: refused, on the code step.
  await signOut(page);
  await enterPassword(page);
  await page.getByLabel("Code", { exact: true }).fill(signInCode);
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page.getByRole("alert")).toContainText("That code is not valid");
  await expect(page.getByRole("heading", { level: 1, name: "Two-factor sign-in" })).toBeVisible();
  await expectNoAxeViolations(page);

  // A recovery code instead.
  await page.getByRole("button", { name: "Use a recovery code" }).click();
  const recovery = page.getByLabel("Recovery code");
  await expect(recovery).toBeFocused();
  await expect(recovery).toHaveAttribute("inputmode", "text");
  await screenshotForReview(page, "sign-in-recovery-step");
  await recovery.fill(codes[0]!);
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Blog Admin" })).toBeVisible();

  await openAccount(page);
  await expect(page.getByText("9 of 10 recovery codes are unused")).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshotForReview(page, "account-2fa-on");

  // Turning it off asks the password.
  await page.getByLabel("Your password, to turn it off").fill("not-my-password");
  await page.getByRole("button", { name: "Turn off two-factor sign-in" }).click();
  await expect(page.getByRole("alert")).toContainText("The password is not correct");
  await expect(page.getByLabel("Your password, to turn it off")).toBeFocused();
  await expectNoAxeViolations(page);
  await page.getByLabel("Your password, to turn it off").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Turn off two-factor sign-in" }).click();
  await expect(page.getByRole("status")).toContainText("Two-factor sign-in is off");
});

test("the session list marks this device and signs out another session", async ({ page, playwright, baseURL }) => {
  test.setTimeout(60_000);
  const other = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: {
      "User-Agent": "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) Gecko/20100101 Firefox/128.0",
      Origin: baseURL!,
    },
  });
  expect((await other.post("/api/auth/login", { data: E2E_ADMIN })).status()).toBe(200);

  await enterPassword(page);
  await expect(page.getByRole("heading", { level: 1, name: "Blog Admin" })).toBeVisible();
  await openAccount(page);
  const list = page.getByRole("region", { name: "Where you are signed in" });
  await expect(list.getByText("This device")).toBeVisible();
  await expect(list.getByText("Firefox on macOS")).toBeVisible();
  // Each session's network, not its address.
  await expect(list.getByText(/^From 127\.0\.0\.0\/24 · last seen/).first()).toBeVisible();
  await expect(list.getByText("127.0.0.1")).toHaveCount(0);
  await expectNoAxeViolations(page);
  await screenshotForReview(page, "account-sessions");

  await list
    .getByRole("button", { name: /^Sign out Firefox on macOS/ })
    .first()
    .click();
  await expect(list.getByRole("status")).toContainText("That session was signed out");
  expect((await other.get("/api/auth/me")).status()).toBe(401);
  await other.dispose();
});
