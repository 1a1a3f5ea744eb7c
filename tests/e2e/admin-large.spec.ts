import { type Page } from "@playwright/test";
import { generatedId, generatedTitle, generatePosts, GENERATED_CONTENT } from "../support/generate-posts";
import { startServer, TEST_ADMIN, type TestServer } from "../support/server";
import { DESKTOP, expect, expectNoAxeViolations, test } from "./fixtures";

/**
 * The admin with 10,000 posts of about 1,000 words (issue 15): the list pages
 * on the server, filters by title, and the editor opens one post whole. Its
 * own server and database (the backend under test), filled directly.
 */
const POSTS = 10_000;
let server: TestServer;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startServer();
  await generatePosts(server.databaseUrl, POSTS);
});
test.afterAll(async () => {
  await server?.stop();
});

/** The table's rows of posts (not its header row). */
const postRows = (page: Page) => page.getByRole("row").filter({ has: page.getByRole("cell") });

test(
  "with 10,000 posts the admin lists a page at a time, filters by title, and opens and saves one post whole",
  DESKTOP,
  async ({ page }, testInfo) => {
    test.setTimeout(90_000);
    expect((await page.request.post(`${server.url}/api/auth/login`, { data: TEST_ADMIN })).status()).toBe(200);
    await page.goto(`${server.url}/admin`);
    await expect(page.getByRole("heading", { level: 1, name: "Blog Admin" })).toBeVisible();

    // Page 1 of 200: the newest 50.
    await expect(page.getByText("10,000 posts, page 1 of 200")).toBeVisible();
    const rows = postRows(page);
    await expect(rows).toHaveCount(50);
    await expect(rows.first()).toContainText(generatedTitle(POSTS));
    await expect(rows.last()).toContainText(generatedTitle(POSTS - 49));
    await expect(page.getByRole("link", { name: "Page 1", exact: true })).toHaveAttribute("aria-current", "page");
    await expectNoAxeViolations(page);

    const pages = page.getByRole("navigation", { name: "Pages of posts" });
    await pages.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/\/admin\?page=2$/);
    await expect(page.getByText("10,000 posts, page 2 of 200")).toBeVisible();
    await expect(rows.first()).toContainText(generatedTitle(POSTS - 50));
    await pages.getByRole("link", { name: "Page 200" }).click();
    await expect(page.getByText("10,000 posts, page 200 of 200")).toBeVisible();
    await expect(rows.last()).toContainText(generatedTitle(1));
    await pages.getByRole("link", { name: "Previous" }).click();
    await expect(page).toHaveURL(/\/admin\?page=199$/);
    await expect(rows.first()).toContainText(generatedTitle(100));

    // The filter: case-insensitive "contains", from the first page, keeping what was typed.
    const filter = page.getByRole("searchbox", { name: "Filter by title" });
    await filter.fill("needle IN");
    await expect(page.getByText("1 post matches “needle IN”")).toBeVisible();
    await expect(page).toHaveURL(/\/admin\?q=needle\+IN$/);
    await expect(filter).toHaveValue("needle IN");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("Needle in the haystack");

    // "%" is a character, not a wildcard.
    await filter.fill("100%");
    await expect(page.getByText("10 posts match “100%”")).toBeVisible();
    await expect(rows).toHaveCount(10);

    await filter.fill("no such title");
    await expect(page.getByText("No posts match “no such title”.")).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "Clear the filter" }).click();
    await expect(filter).toHaveValue("");
    await expect(page.getByText("10,000 posts, page 1 of 200")).toBeVisible();

    // Sorting on the server: Z to A puts "Needle" before every "Generated" and "Discount" post.
    await page.getByLabel("Sort").selectOption({ label: "Title Z to A" });
    await expect(page).toHaveURL(/sort=-title/);
    await expect(rows.first()).toContainText("Needle in the haystack");
    await page.getByLabel("Sort").selectOption({ label: "Newest first" });
    await expect(rows.first()).toContainText(generatedTitle(POSTS));

    // Open one post: the editor reads it whole (the list has no markdown) and saves it.
    await filter.fill("haystack");
    await expect(rows).toHaveCount(1);
    await rows.first().getByRole("button", { name: "Edit" }).click();
    await expect(page.getByRole("heading", { name: "Edit Post" })).toBeVisible();
    await expect(page.getByLabel("Title")).toHaveValue("Needle in the haystack");
    await expect(page.getByLabel("Content")).toHaveValue(GENERATED_CONTENT);
    const renamed = `Needle in the haystack, found on ${testInfo.project.name}`;
    await page.getByLabel("Title").fill(renamed);
    await page.getByLabel("Content").press("ControlOrMeta+End");
    await page.getByLabel("Content").pressSequentially(" Found.");
    await page.getByRole("button", { name: "Save" }).click();

    // Back on the list, filtered as before, with the new title.
    await expect(page.getByRole("status")).toContainText(`"${renamed}" was saved`);
    await expect(filter).toHaveValue("haystack");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(renamed);

    const stored = await page.request.get(`${server.url}/api/admin/posts/${generatedId(4242)}`);
    expect(stored.status()).toBe(200);
    expect(await stored.json()).toMatchObject({
      title: renamed,
      slug: "generated-post-04242",
      content: `${GENERATED_CONTENT} Found.`,
      published: false,
    });
    const listed = await page.request.get(`${server.url}/api/admin/posts?q=found%20on`);
    expect(listed.headers()["x-total-count"]).toBe("1");
  },
);
