import { type Page } from "@playwright/test";
import sharp from "sharp";
import { E2E_ADMIN } from "../../playwright.config";
import { startServer } from "../support/server";
import { DESKTOP, expect, expectNoAxeViolations, signIn, test } from "./fixtures";

const REQUIRED = "Please fill in all required fields: title, slug, excerpt, and content";

/** Runs an action that opens a window.alert/confirm; answers it and returns its text. */
async function dialogFrom(page: Page, action: () => Promise<unknown>, answer: "accept" | "dismiss" = "accept") {
  const dialog = page.waitForEvent("dialog");
  const done = action();
  const opened = await dialog;
  const message = opened.message();
  await (answer === "accept" ? opened.accept() : opened.dismiss());
  await done;
  return message;
}

async function fillRequired(
  page: Page,
  { title, excerpt = "An excerpt.", content = "Body text." }: { title: string; excerpt?: string; content?: string },
) {
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Excerpt").fill(excerpt);
  await page.getByLabel("Content").fill(content);
}

const unique = (label: string, project: string) => `${label} ${project} ${Date.now().toString(36)}`;

test("sign-in, then a new post: defaults, slug rule, required-fields alert, preview, 'Saving...', table and public article", async ({
  page,
}, testInfo) => {
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin\/login$/);
  await page.getByLabel("E-mail").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Blog Admin" })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: "Create New Post" }).click();
  await expect(page.getByRole("heading", { name: "New Post" })).toBeVisible();
  // New-post defaults (docs/product/contract.md#new-post-defaults).
  await expect(page.getByLabel("Title")).toHaveValue("");
  await expect(page.getByLabel("Title")).toBeFocused();
  await expect(page.getByLabel("Slug")).toHaveValue("");
  await expect(page.getByLabel("Excerpt")).toHaveValue("");
  await expect(page.getByLabel("Excerpt")).toHaveAttribute("rows", "3");
  await expect(page.getByLabel("Category")).toHaveValue("");
  await expect(page.getByLabel("Read Time")).toHaveValue("5 min read");
  await expect(page.getByLabel("Published")).not.toBeChecked();
  await expect(page.getByLabel("Content")).toHaveValue("");
  await expect(page.getByLabel("Content")).toHaveAttribute("rows", "15");
  await expect(page.getByLabel("Header Image")).toHaveAttribute("type", "file");
  const publishDate = page.getByLabel("Publish Date");
  await expect(publishDate).toHaveAttribute("type", "datetime-local");
  const shownDate = await publishDate.inputValue();
  const localNow = await page.evaluate(() => Date.now());
  expect(Math.abs(new Date(shownDate).getTime() - localNow)).toBeLessThan(5 * 60_000);
  await expectNoAxeViolations(page);

  // Slug rule (docs/product/contract.md#slugs): lowercase, runs of other characters become one hyphen, trimmed.
  await page.getByLabel("Title").fill("  Hello, Ojai!  Spring 2026 -- Update?? ");
  await expect(page.getByLabel("Slug")).toHaveValue("hello-ojai-spring-2026-update");
  await page.getByLabel("Title").fill("Ünïcode & Émoji 🎉 Post");
  await expect(page.getByLabel("Slug")).toHaveValue("n-code-moji-post");
  // Edited by hand, the slug no longer follows the title.
  const title = unique("Admin E2E Post", testInfo.project.name);
  const slug = `admin-e2e-${testInfo.project.name}-${Date.now().toString(36)}`;
  await page.getByLabel("Slug").fill(slug);
  await page.getByLabel("Title").fill(title);
  await expect(page.getByLabel("Slug")).toHaveValue(slug);

  // Save with excerpt and content empty: the required-fields alert, nothing sent, editor stays.
  expect(await dialogFrom(page, () => page.getByRole("button", { name: "Save" }).click())).toBe(REQUIRED);
  await expect(page.getByRole("heading", { name: "New Post" })).toBeVisible();
  await expect(page.getByLabel("Title")).toHaveValue(title);

  await page.getByLabel("Excerpt").fill("What the new admin can do.");
  await page.getByLabel("Category").fill("Testing");
  await page.getByLabel("Read Time").fill("2 min read");
  await page
    .getByLabel("Content")
    .fill(
      "## Rendered Section\n\nSome **bold** words.\n\n<script>window.__xss = 1</script>\n\n| a | b |\n|---|---|\n| 1 | 2 |",
    );

  // Preview/Edit toggle: the rendered body from the public pipeline.
  await page.getByRole("button", { name: "Preview" }).click();
  const preview = page.getByRole("region", { name: "Preview" });
  await expect(preview.getByRole("heading", { name: "Rendered Section" })).toBeVisible();
  await expect(preview.locator("strong")).toHaveText("bold");
  await expect(preview.locator("table")).toBeVisible();
  await expect(preview.getByRole("heading", { name: title })).toBeVisible();
  expect(await preview.locator("script").count()).toBe(0);
  expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
  await expect(page.getByLabel("Title")).toBeHidden();
  await expect(page.getByRole("button", { name: "Edit", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  await expect(page.getByLabel("Title")).toBeVisible();
  if (!testInfo.project.name.startsWith("phone")) {
    // Wide screens show the side preview next to the form, following the typing.
    await expect(preview).toBeVisible();
    await page.getByLabel("Content").fill("## Live Heading\n\nText.");
    await expect(preview.getByRole("heading", { name: "Live Heading" })).toBeVisible();
  } else {
    await expect(preview).toBeHidden();
    await page.getByLabel("Content").fill("## Live Heading\n\nText.");
  }

  await page.getByLabel("Published").check();
  // Hold the request a moment so the pending state can be seen.
  await page.route("**/api/admin/posts", async (route) => {
    if (route.request().method() === "POST") await new Promise((resolve) => setTimeout(resolve, 800));
    await route.fallback();
  });
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("button", { name: "Saving..." })).toBeDisabled();
  await expect(page.getByRole("heading", { name: "New Post" })).toBeHidden();
  await page.unrouteAll({ behavior: "wait" });

  // Back to the list, refreshed.
  await expect(page.getByRole("heading", { name: "New Post" })).toBeHidden();
  const row = page.getByRole("row").filter({ hasText: title });
  await expect(row).toBeVisible();
  await expect(row.getByRole("cell", { name: "Testing" })).toBeVisible();
  await expect(row.getByRole("cell", { name: "Published" })).toBeVisible();
  await expect(page.getByRole("status")).toContainText(`"${title}" was saved and is published.`);
  await expectNoAxeViolations(page);

  await page.getByRole("link", { name: "View it on the blog" }).click();
  await expect(page).toHaveURL(new RegExp(`/blog/${slug}$`));
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Live Heading" })).toBeVisible();
});

test(
  "editing an existing post loads its fields, and the slug follows a new title while it matched the old one",
  DESKTOP,
  async ({ page }, testInfo) => {
    await signIn(page, { openAdmin: true });
    const title = unique("Editable", testInfo.project.name);
    await page.getByRole("button", { name: "Create New Post" }).click();
    await fillRequired(page, { title, content: "Original body." });
    await page.getByLabel("Category").fill("Before");
    await page.getByRole("button", { name: "Save" }).click();
    const row = page.getByRole("row").filter({ hasText: title });
    await expect(row.getByRole("cell", { name: "Draft" })).toBeVisible();

    await row.getByRole("button", { name: "Edit" }).click();
    await expect(page.getByRole("heading", { name: "Edit Post" })).toBeVisible();
    await expect(page.getByLabel("Title")).toHaveValue(title);
    await expect(page.getByLabel("Category")).toHaveValue("Before");
    await expect(page.getByLabel("Content")).toHaveValue("Original body.");
    await expect(page.getByLabel("Published")).not.toBeChecked();
    const oldSlug = await page.getByLabel("Slug").inputValue();

    const renamed = `${title} Renamed`;
    await page.getByLabel("Title").fill(renamed);
    await expect(page.getByLabel("Slug")).toHaveValue(`${oldSlug}-renamed`);
    await expect(page.getByText(`links to /blog/${oldSlug} will stop working`)).toBeVisible();
    await page.getByLabel("Category").fill("After");
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "Save" }).click();

    const renamedRow = page.getByRole("row").filter({ hasText: renamed });
    await expect(renamedRow.getByRole("cell", { name: "After" })).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: "Before" })).toHaveCount(0);
  },
);

test(
  "a failing save alerts 'Error saving post: Failed to save post: {status} {body}' and keeps the editor and its text",
  DESKTOP,
  async ({ page }) => {
    await signIn(page, { openAdmin: true });
    await page.getByRole("button", { name: "Create New Post" }).click();
    await fillRequired(page, { title: "Duplicate of a sample" });
    await page.getByLabel("Slug").fill("building-an-iot-garden-monitor-in-ojai");
    const message = await dialogFrom(page, () => page.getByRole("button", { name: "Save" }).click());
    expect(message).toBe(
      'Error saving post: Failed to save post: 409 {"error":"A post with this slug already exists"}',
    );
    await expect(page.getByRole("heading", { name: "New Post" })).toBeVisible();
    await expect(page.getByLabel("Title")).toHaveValue("Duplicate of a sample");
    await expect(page.getByRole("alert")).toHaveText(
      "The post was not saved: A post with this slug already exists. Your changes are kept.",
    );
    await expect(page.getByRole("button", { name: "Save" })).toBeEnabled();
    await expectNoAxeViolations(page);

    // A malformed slug typed by hand is refused by the server with its reason.
    await page.getByLabel("Slug").fill("Not A Slug");
    const malformed = await dialogFrom(page, () => page.getByRole("button", { name: "Save" }).click());
    expect(malformed).toMatch(/^Error saving post: Failed to save post: 400 \{"error":"Slug may contain only/);
  },
);

test(
  "Ctrl/Cmd+S saves the open post; with no post open it alerts 'No post data to save'",
  DESKTOP,
  async ({ page }, testInfo) => {
    await signIn(page, { openAdmin: true });
    const message = await dialogFrom(page, () => page.keyboard.press("ControlOrMeta+s"));
    expect(message).toBe("No post data to save");

    const title = unique("Saved By Keyboard", testInfo.project.name);
    await page.getByRole("button", { name: "Create New Post" }).click();
    await fillRequired(page, { title });
    await page.getByLabel("Content").press("ControlOrMeta+s");
    await expect(page.getByRole("row").filter({ hasText: title })).toBeVisible();
  },
);

test(
  "delete asks 'Are you sure you want to delete this post?' first (images kept by default); Cancel keeps the post, Delete removes it",
  DESKTOP,
  async ({ page }, testInfo) => {
    await signIn(page, { openAdmin: true });
    const title = unique("To Be Deleted", testInfo.project.name);
    await page.getByRole("button", { name: "Create New Post" }).click();
    await fillRequired(page, { title });
    await page.getByLabel("Published").check();
    await page.getByRole("button", { name: "Save" }).click();
    const row = page.getByRole("row").filter({ hasText: title });
    const remove = row.getByRole("button", { name: "Delete" });

    // The confirmation is the site's own dialog (it also offers to delete the post's images, ADR 036).
    const confirmation = page.getByRole("alertdialog", { name: "Delete post" });
    await remove.click();
    await expect(confirmation).toContainText("Are you sure you want to delete this post?");
    await confirmation.getByRole("button", { name: "Cancel" }).click();
    await expect(confirmation).toBeHidden();
    await expect(row).toBeVisible();
    await expect(remove).toBeFocused();

    await remove.click();
    await expect(confirmation).toContainText("Are you sure you want to delete this post?");
    await expect(confirmation.getByLabel("Also delete the images only this post uses")).not.toBeChecked();
    await confirmation.getByRole("button", { name: "Delete" }).click();
    await expect(row).toHaveCount(0);
    await expect(page.getByRole("status")).toContainText("The post was deleted.");
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: "Blog Admin" })).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: title })).toHaveCount(0);
  },
);

test(
  "close returns to the list without saving, and what was typed can be restored",
  DESKTOP,
  async ({ page }, testInfo) => {
    await signIn(page, { openAdmin: true });
    const title = unique("Never Saved", testInfo.project.name);
    await page.getByRole("button", { name: "Create New Post" }).click();
    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Excerpt").fill("Typed, then closed.");
    await page.getByRole("button", { name: "Close" }).click();
    await expect(page.getByRole("heading", { name: "New Post" })).toBeHidden();
    await expect(page.getByRole("row").filter({ hasText: title })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Create New Post" })).toBeFocused();

    await page.getByRole("button", { name: "Restore unsaved changes" }).click();
    await expect(page.getByLabel("Title")).toHaveValue(title);
    await expect(page.getByLabel("Excerpt")).toHaveValue("Typed, then closed.");
    await page.getByRole("button", { name: "Close" }).click();
    // The list is paged: ask for this title, so no page goes unseen.
    const fresh = await page.request.get(`/api/admin/posts?q=${encodeURIComponent(title)}`);
    expect(fresh.status()).toBe(200);
    expect((await fresh.json()).some((p: { title: string }) => p.title === title)).toBe(false);
  },
);

test("leaving with unsaved changes asks first; staying keeps every field", DESKTOP, async ({ page }, testInfo) => {
  await signIn(page, { openAdmin: true });
  const title = unique("Unsaved", testInfo.project.name);
  await page.getByRole("button", { name: "Create New Post" }).click();
  await page.getByLabel("Title").fill(title);

  const message = await dialogFrom(page, () => page.getByRole("link", { name: "View site" }).click(), "dismiss");
  expect(message).toBe("You have unsaved changes. Leave this page and lose them?");
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByLabel("Title")).toHaveValue(title);

  // Closing or reloading the tab: the browser's own "leave site?" prompt.
  const beforeUnload = page.waitForEvent("dialog");
  await page.close({ runBeforeUnload: true });
  const dialog = await beforeUnload;
  expect(dialog.type()).toBe("beforeunload");
  await dialog.dismiss();
  // Staying: the page is still open with what was typed (and the browser has
  // finished with the prompt before the test closes it).
  await expect(page.getByLabel("Title")).toHaveValue(title);
  expect(page.isClosed()).toBe(false);
});

async function testPhoto(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: { r: 30, g: 110, b: 60 } } })
    .composite([
      {
        input: Buffer.from(
          `<svg width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${height / 3}" fill="#f5c542"/></svg>`,
        ),
      },
    ])
    .withExif({ IFD0: { Make: "SecretCam" } })
    .jpeg()
    .toBuffer();
}

test("an uploaded header image shows on the public article in a responsive size; a failed upload changes nothing and says why", async ({
  page,
}, testInfo) => {
  await signIn(page, { openAdmin: true });
  const title = unique("With Image", testInfo.project.name);
  await page.getByRole("button", { name: "Create New Post" }).click();
  await fillRequired(page, { title });
  await page.getByLabel("Published").check();

  await page.getByLabel("Header Image").setInputFiles({
    name: "header.jpg",
    mimeType: "image/jpeg",
    buffer: await testPhoto(2400, 1350),
  });
  const thumbnail = page.getByRole("img", { name: "Current header image" });
  await expect(thumbnail).toBeVisible();
  const url = await thumbnail.getAttribute("src");
  expect(url).toMatch(/^\/images\/[0-9a-f]{64}-1600\.webp$/);
  await expectNoAxeViolations(page);

  // Not an image, whatever its name says: refused, the image stays as it was.
  await page.getByLabel("Header Image").setInputFiles({
    name: "notes.png",
    mimeType: "image/png",
    buffer: Buffer.from("just some text, not a picture\n".repeat(10)),
  });
  await expect(page.getByRole("alert")).toHaveText(
    "Failed to upload image: The file is not a JPEG, PNG, WebP, GIF or AVIF image",
  );
  await expect(thumbnail).toHaveAttribute("src", url!);
  await expectNoAxeViolations(page);

  // An image needs its alt text before the post is saved (issue 18).
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "alt text" })).toHaveText(
    "Describe the header image in its alt text: people who cannot see it read that instead",
  );
  await expect(page.getByLabel("Image description (alt text)")).toBeFocused();
  await page.getByLabel("Image description (alt text)").fill("A gradient from teal to orange");

  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("row").filter({ hasText: title })).toBeVisible();
  const saved = (await (await page.request.get(`/api/admin/posts?q=${encodeURIComponent(title)}`)).json()).find(
    (p: { title: string }) => p.title === title,
  );
  expect(saved.headerImage).toBe(url);

  await page.goto(`/blog/${saved.slug}`);
  const image = page.locator("article img").first();
  await expect(image).toBeVisible();
  await expect(image).toHaveAttribute("alt", "A gradient from teal to orange");
  const srcset = await image.getAttribute("srcset");
  for (const width of [320, 640, 960, 1280, 1600]) expect(srcset).toContain(`-${width}.webp ${width}w`);
  expect(await image.getAttribute("sizes")).toBeTruthy();
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  const chosen = await image.evaluate((img: HTMLImageElement) => ({
    src: img.currentSrc,
    shown: img.getBoundingClientRect().width * window.devicePixelRatio,
  }));
  // The browser picked a variant that fits the layout, not the largest file.
  const chosenWidth = Number(/-(\d+)\.webp$/.exec(chosen.src)?.[1]);
  expect(chosenWidth).toBeLessThan(1600);
  expect(chosenWidth).toBeGreaterThanOrEqual(Math.min(chosen.shown, 1600) * 0.75);
  const response = await page.request.get(chosen.src);
  expect(response.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  const body = await response.body();
  expect((await sharp(body).metadata()).width).toBe(chosenWidth);
  expect(body.includes(Buffer.from("SecretCam"))).toBe(false);
});

test(
  "a post's search-engine fields: meta title and description with their counts, hidden from search engines",
  DESKTOP,
  async ({ page }, testInfo) => {
    await signIn(page, { openAdmin: true });
    const title = unique("Seo", testInfo.project.name);
    await page.getByRole("button", { name: "Create New Post" }).click();
    await fillRequired(page, { title, excerpt: "The excerpt shown on cards." });
    await page.getByLabel("Published").check();
    const fields = page.getByRole("group", { name: "Search engines and sharing" });
    await expect(fields.getByLabel("Search result headline")).toHaveAttribute("placeholder", title);
    await expect(fields.getByLabel("Search result description")).toHaveAttribute(
      "placeholder",
      "The excerpt shown on cards.",
    );
    await fields
      .getByLabel("Search result headline")
      .fill("Sixty-three characters: three more than what search results show");
    await expect(fields.getByText("64 characters: past about 60, search results cut it short.")).toBeVisible();
    await fields.getByLabel("Search result headline").fill("Cloud costs, explained");
    await expect(fields.getByText("22 characters.")).toBeVisible();
    await fields.getByLabel("Search result description").fill("How a small company cut its cloud bill in half.");
    await fields.getByLabel("Hide from search engines").check();
    await expectNoAxeViolations(page);

    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("row").filter({ hasText: title })).toBeVisible();
    const saved = (await (await page.request.get(`/api/admin/posts?q=${encodeURIComponent(title)}`)).json()).find(
      (p: { title: string }) => p.title === title,
    );
    expect(saved).toMatchObject({
      metaTitle: "Cloud costs, explained",
      metaDescription: "How a small company cut its cloud bill in half.",
      noindex: true,
    });

    await page.goto(`/blog/${saved.slug}`);
    await expect(page).toHaveTitle("Cloud costs, explained");
    await expect(page.locator('meta[name="description"]')).toHaveAttribute(
      "content",
      "How a small company cut its cloud bill in half.",
    );
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);

    // Opened again, the editor shows what was saved.
    await page.goto("/admin");
    await page.getByRole("row").filter({ hasText: title }).getByRole("button", { name: "Edit" }).click();
    await expect(page.getByLabel("Search result headline")).toHaveValue("Cloud costs, explained");
    await expect(page.getByLabel("Hide from search engines")).toBeChecked();
  },
);

test(
  "a post's newsletter option: a box by the publish controls, with its hint, kept by Save",
  DESKTOP,
  async ({ page }, testInfo) => {
    await signIn(page, { openAdmin: true });
    const title = unique("Mailed", testInfo.project.name);
    await page.getByRole("button", { name: "Create New Post" }).click();
    await fillRequired(page, { title });
    const option = page.getByRole("checkbox", { name: "E-mail this post to subscribers" });
    await expect(option).not.toBeChecked();
    await expect(option).toHaveAccessibleDescription(
      "Sent once, when the post becomes public (at its scheduled time too), to everyone subscribed then.",
    );
    // By keyboard like every box of the form. Left a draft: nothing is mailed.
    await option.focus();
    await page.keyboard.press("Space");
    await expect(option).toBeChecked();
    await expectNoAxeViolations(page);

    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("row").filter({ hasText: title })).toBeVisible();
    const saved = (await (await page.request.get(`/api/admin/posts?q=${encodeURIComponent(title)}`)).json()).find(
      (p: { title: string }) => p.title === title,
    );
    expect(saved).toMatchObject({ emailSubscribers: true, published: false });

    await page.getByRole("row").filter({ hasText: title }).getByRole("button", { name: "Edit" }).click();
    await expect(page.getByLabel("E-mail this post to subscribers")).toBeChecked();
  },
);

test("the first administrator is created only through the setup link from the log", DESKTOP, async ({ page }) => {
  const server = await startServer({ ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined });
  try {
    const logged = server.logs.find((entry) => typeof entry.setupLink === "string")?.setupLink as string;
    const token = new URL(logged).searchParams.get("token")!;
    expect(token).toBeTruthy();

    await page.goto(`${server.url}/admin`);
    await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
    await expect(page.getByText("No administrator exists yet.")).toBeVisible();

    await page.goto(`${server.url}/admin/setup?token=not-the-token`);
    await expect(page.getByRole("heading", { level: 1, name: "Setup link not valid" })).toBeVisible();

    await page.goto(`${server.url}/admin/setup?token=${token}`);
    await expect(page.getByRole("heading", { level: 1, name: "Create the administrator" })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByLabel("E-mail").fill("owner@example.com");
    await page.getByLabel("Password (at least 10 characters)").fill("a-long-password-1");
    await page.getByLabel("Repeat the password").fill("a-long-password-1");
    await page.getByRole("button", { name: "Create administrator" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Blog Admin" })).toBeVisible();
    await expect(page.getByText("No blog posts yet.")).toBeVisible();
    await expectNoAxeViolations(page);

    // Used once: the link no longer works, and sign-out ends the session.
    await page.goto(`${server.url}/admin/setup?token=${token}`);
    await expect(page.getByRole("heading", { level: 1, name: "Setup link not valid" })).toBeVisible();
    await page.goto(`${server.url}/admin`);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/admin\/login$/);
  } finally {
    await server.stop();
  }
});
