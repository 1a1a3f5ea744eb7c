import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, startServer, type TestServer } from "../support/server";

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ SEED_SAMPLE_POSTS: "false", SITE_URL: "https://www.example.org" });
});
afterAll(() => server?.stop());

const html = async (path: string) => (await fetch(server.url + path)).text();

describe("landing page on the server", () => {
  it("says 'No blog posts available yet.' with no public posts", async () => {
    const page = await html("/");
    expect(page).toContain("No blog posts available yet.");
    expect(page).not.toContain("Loading latest insights...");
  });

  it("renders the splash, every section in order and the footer in the first HTML", async () => {
    const page = await html("/");
    expect(page).toContain('class="splash"');
    const order = ["hero", "media", "systems", "research", "solutions"].map((id) => page.indexOf(`id="${id}"`));
    expect(order.every((position) => position > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(page.indexOf("<footer")).toBeGreaterThan(order[4]!);
    expect(page).toContain("© 2025 Ojai Technology Services");
  });

  it("the carousel shows at most the first 5 public posts, newest first, drafts left out", async () => {
    const admin = new ApiClient(server.url);
    await admin.signIn();
    for (let i = 1; i <= 7; i++) {
      const response = await admin.post("/api/admin/posts", {
        title: `Insight number ${i}`,
        slug: `insight-number-${i}`,
        excerpt: `Excerpt ${i}`,
        content: `Body ${i}`,
        category: "Notes",
        readTime: "5 min read",
        published: true,
        publishDate: new Date(Date.UTC(2025, 0, i)).toISOString(),
      });
      expect(response.status).toBe(201);
    }
    await admin.post("/api/admin/posts", {
      title: "A draft that stays hidden",
      slug: "a-draft-that-stays-hidden",
      excerpt: "Draft",
      content: "Draft",
      category: "Notes",
      readTime: "5 min read",
      published: false,
      publishDate: new Date().toISOString(),
    });
    const page = await html("/");
    expect(page).toContain("1 of 5 articles");
    for (const i of [7, 6, 5, 4, 3]) expect(page).toContain(`Insight number ${i}`);
    for (const i of [2, 1]) expect(page).not.toContain(`Insight number ${i}<`);
    expect(page).not.toContain("A draft that stays hidden");
    expect(page).not.toContain("No blog posts available yet.");
    expect(page).toContain("Share &quot;Insight number 7&quot;");
  });
});
