import { request as apiRequest, type APIRequestContext } from "@playwright/test";
import { E2E_ADMIN } from "../../playwright.config";
import { DESKTOP, expect, hydrated, test } from "./fixtures";

/**
 * Issue 32, analytics (ADR 056), in a real browser: a visitor's views are
 * counted once each, with their page (the in-place article as its own),
 * source and campaign (which a second reader's address gives a row of its
 * own), within 10 seconds; a signed-in administrator's are
 * not; no public page sets a cookie or makes the browser ask another host.
 * Counts are compared before and after: desktop and phone share a site.
 */

interface Report {
  totals: { views: number; visitors: number };
  pages: Array<{ path: string; views: number }>;
  referrers: Array<{ source: string; visitors: number; views: number }>;
  campaigns: Array<{ campaign: string; visitors: number; views: number }>;
}

const today = () => new Date().toISOString().slice(0, 10);
const READER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

async function signedInApi(baseURL: string): Promise<APIRequestContext> {
  const api = await apiRequest.newContext({ baseURL });
  expect((await api.post("/api/auth/login", { data: E2E_ADMIN })).status()).toBe(200);
  return api;
}

async function report(api: APIRequestContext): Promise<Report> {
  const response = await api.get(`/api/admin/analytics?from=${today()}&to=${today()}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as Report;
}

test(
  "a visitor's views are counted once each, an administrator's not; no cookie, no other host",
  DESKTOP,
  async ({ page, browser, site }, testInfo) => {
    test.setTimeout(60_000);
    const api = await signedInApi(site.url);
    // Views an earlier test of this worker made in its last seconds are written
    // with the next batch (every 3 s): the count to start from is one that held
    // still across a batch.
    let before = await report(api);
    for (let settled = false; !settled;) {
      await page.waitForTimeout(3_500);
      const again = await report(api);
      settled = again.totals.views === before.totals.views;
      before = again;
    }
    const tag = `e2e-${testInfo.project.name}-${Date.now().toString(36)}`;
    const origin = new URL(site.url).origin;
    const otherHosts: string[] = [];
    const cookies: string[] = [];
    page.on("request", (sent) => {
      const url = new URL(sent.url());
      if ((url.protocol === "http:" || url.protocol === "https:") && url.origin !== origin) otherHosts.push(sent.url());
    });
    page.on("response", async (answer) => {
      const setCookie = await answer.headerValue("set-cookie");
      if (setCookie) cookies.push(`${answer.url()}: ${setCookie}`);
    });

    // 1: the landing page from a newsletter's link; 2: /blog from its link to all articles (a move within the site).
    await page.goto(`/?utm_source=${tag}&utm_campaign=${tag}`);
    await page.locator('main a[href="/blog"]').first().click();
    await expect(page).toHaveURL(/\/blog$/);
    await hydrated(page);
    // 3: an article opened in place, counted as the article's page.
    const card = page.getByRole("article").first().getByRole("link").first();
    const href = await card.getAttribute("href");
    const slug = href!.split("/").pop()!;
    await card.click();
    await expect(page).toHaveURL(new RegExp(`/blog\\?article=${slug}$`));
    await hydrated(page);
    // 4: /about from another site's link.
    await page.goto("/about", { referer: `https://${tag}.example.org/a-post` });

    // Another reader from another address, from the same newsletter and site: a source or campaign seen
    // from one address alone is counted under "(other)"; with a second, it has its row, every view in it.
    const reader = await apiRequest.newContext({ baseURL: site.url });
    const asReader = (referer?: string) => ({
      headers: {
        accept: "text/html",
        "user-agent": READER,
        "x-forwarded-for": "192.0.2.77",
        ...(referer ? { referer } : {}),
      },
    });
    expect((await reader.get(`/?utm_source=${tag}&utm_campaign=${tag}`, asReader())).status()).toBe(200);
    expect((await reader.get("/about", asReader(`https://${tag}.example.org/b-post`))).status()).toBe(200);
    await reader.dispose();

    // An administrator's own visit, in a browser that is signed in: not counted.
    const ownerContext = await browser.newContext({ baseURL: site.url });
    const owner = await ownerContext.newPage();
    expect((await owner.request.post("/api/auth/login", { data: E2E_ADMIN })).status()).toBe(200);
    await owner.goto("/about");
    await owner.goto("/");
    await ownerContext.close();

    const started = Date.now();
    let after = await report(api);
    while (after.totals.views < before.totals.views + 6 && Date.now() - started < 10_000) {
      await page.waitForTimeout(250);
      after = await report(api);
    }
    // Past one more write nothing else came in: the owner's views were never counted.
    await page.waitForTimeout(3_500);
    after = await report(api);
    expect(after.totals.views - before.totals.views).toBe(6);
    const viewsOf = (numbers: Report, path: string) => numbers.pages.find((entry) => entry.path === path)?.views ?? 0;
    expect(viewsOf(after, `/blog/${slug}`) - viewsOf(before, `/blog/${slug}`)).toBe(1);
    expect(viewsOf(after, "/about") - viewsOf(before, "/about")).toBe(2);
    expect(after.referrers).toContainEqual({ source: tag, visitors: 2, views: 2 });
    expect(after.referrers).toContainEqual({ source: `${tag}.example.org`, visitors: 2, views: 2 });
    expect(after.campaigns).toContainEqual({ campaign: tag, visitors: 2, views: 2 });

    expect(otherHosts).toEqual([]);
    expect(cookies).toEqual([]);
    expect(await page.context().cookies()).toEqual([]);
    await api.dispose();
  },
);
