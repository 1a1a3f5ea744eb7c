import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, startServer, type TestServer } from "../support/server";

/**
 * Settings (docs/product/contract.md#settings, issue 16, ADR 034): GET and PUT
 * /api/admin/settings; a bad field is a 400 naming it and changes nothing;
 * the public pages, the feed and the structured data show saved values on
 * the next request, cached or not; an unset value is never a placeholder.
 */

let server: TestServer;
let admin: ApiClient;
const visitor = () => new ApiClient(server.url);

beforeAll(async () => {
  server = await startServer({
    SEED_SAMPLE_POSTS: "true",
    COMPANY_NAME: "Ojai Test Works",
    CONTACT_EMAIL: "hello@ojai.example",
    CONTACT_NOTIFY_TO: "leads@ojai.example",
  });
  admin = new ApiClient(server.url);
  await admin.signIn();
});
afterAll(() => server?.stop());

const ORIGINAL = {
  companyName: "Ojai Test Works",
  contactEmail: "hello@ojai.example",
  contactPhone: null,
  location: "Ojai, California",
  socialUrls: { facebook: null, instagram: null, linkedin: null },
  metaDescription:
    "Web design for media, cloud and business platforms for systems, and research projects from Ojai, California.",
  notifyEmail: "leads@ojai.example",
};

describe("GET and PUT /api/admin/settings", () => {
  it("need a signed-in administrator", async () => {
    expect((await visitor().get("/api/admin/settings")).status).toBe(401);
    expect((await visitor().put("/api/admin/settings", { companyName: "Hijacked" })).status).toBe(401);
  });

  it("the first start saved the environment's values; nothing unset is filled with a placeholder", async () => {
    const answer = await admin.get("/api/admin/settings");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.json).toEqual(ORIGINAL);
    const about = (await visitor().get("/about")).text;
    expect(about).toContain('href="mailto:hello@ojai.example"');
    expect(about).not.toMatch(/555|>Phone</);
    for (const network of ["Facebook", "Instagram", "LinkedIn"])
      expect(about).toMatch(new RegExp(`href="#"[^>]*aria-label="${network}"`));
  });

  it.each([
    [{ companyName: "" }, "companyName", /companyName must not be empty/],
    [{ companyName: null }, "companyName", /companyName must not be empty/],
    [{ companyName: "x".repeat(101) }, "companyName", /too long \(100 characters/],
    [{ companyName: "Two\nlines" }, "companyName", /one line/],
    [{ contactEmail: "not-an-address" }, "contactEmail", /contactEmail must be an e-mail address/],
    [{ contactEmail: `${"a".repeat(400)}@example.com` }, "contactEmail", /too long/],
    [{ notifyEmail: "a@b" }, "notifyEmail", /notifyEmail must be an e-mail address/],
    [{ contactPhone: "call us maybe" }, "contactPhone", /contactPhone must be a phone number/],
    [{ contactPhone: "12" }, "contactPhone", /contactPhone must be a phone number/],
    // The length is checked before the pattern runs.
    [{ contactPhone: "1".repeat(100_000) }, "contactPhone", /too long \(40 characters/],
    [{ location: 42 }, "location", /location must be text or null/],
    [{ metaDescription: "d".repeat(301) }, "metaDescription", /too long \(300 characters/],
    [{ socialUrls: { facebook: "http://facebook.com/ojai" } }, "socialUrls.facebook", /https:\/\/ address/],
    [{ socialUrls: { instagram: "javascript:alert(1)" } }, "socialUrls.instagram", /https:\/\/ address/],
    [{ socialUrls: { linkedin: "https://user:pw@linkedin.com/x" } }, "socialUrls.linkedin", /https:\/\/ address/],
    [{ socialUrls: { linkedin: "https://localhost/x" } }, "socialUrls.linkedin", /https:\/\/ address/],
    [{ socialUrls: { twitter: "https://x.com/ojai" } }, "socialUrls.twitter", /is not a setting/],
    [{ socialUrls: "https://facebook.com/ojai" }, "socialUrls", /socialUrls must be an object/],
    [{ phone: "805 555 0142" }, "phone", /phone is not a setting/],
    [[], "body", /JSON object/],
  ])("%j is refused with 400 naming %s, and nothing is saved", async (body, field, message) => {
    const answer = await admin.put("/api/admin/settings", body);
    expect(answer.status).toBe(400);
    expect(answer.json.field).toBe(field);
    expect(answer.json.error).toMatch(message);
    expect((await admin.get("/api/admin/settings")).json).toEqual(ORIGINAL);
  });

  it("names every bad field at once, the first one in `error`", async () => {
    const answer = await admin.put("/api/admin/settings", {
      contactEmail: "nope",
      contactPhone: "+1 (805) 555-0142",
      socialUrls: { facebook: "ftp://x.example" },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatch(/^contactEmail/);
    expect(answer.json.issues.map((issue: { field: string }) => issue.field)).toEqual([
      "contactEmail",
      "socialUrls.facebook",
    ]);
    expect((await admin.get("/api/admin/settings")).json).toEqual(ORIGINAL);
  });

  it("refuses a cross-origin PUT (CSRF) and answers 405 to other methods", async () => {
    const forged = await admin.put(
      "/api/admin/settings",
      { companyName: "Forged" },
      { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    );
    expect(forged.status).toBe(403);
    expect((await admin.post("/api/admin/settings", {})).status).toBe(405);
  });
});

describe("saved settings show on the next request of the public pages, cached or not", () => {
  const saved = {
    companyName: "Ojai Renamed Co",
    contactEmail: "team@ojai.example",
    contactPhone: "+1 (805) 555-0142",
    location: "Ventura County, California",
    socialUrls: {
      facebook: "https://www.facebook.com/ojai.tech",
      instagram: null,
      linkedin: "https://www.linkedin.com/company/ojai-tech",
    },
    metaDescription: "Websites, cloud platforms and research,\n   from a small studio in Ojai.",
    notifyEmail: null,
  };

  it("PUT answers 200 with the saved object, normalised; GET reads it back", async () => {
    const answer = await admin.put("/api/admin/settings", saved);
    expect(answer.status).toBe(200);
    const expected = {
      ...saved,
      metaDescription: "Websites, cloud platforms and research, from a small studio in Ojai.",
    };
    expect(answer.json).toEqual(expected);
    expect((await admin.get("/api/admin/settings")).json).toEqual(expected);
  });

  it("a field left out keeps its value; null or an empty string clears it", async () => {
    const answer = await admin.put("/api/admin/settings", { location: "", socialUrls: { facebook: null } });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      companyName: "Ojai Renamed Co",
      location: null,
      socialUrls: { facebook: null, instagram: null, linkedin: "https://www.linkedin.com/company/ojai-tech" },
    });
  });

  it("pages cached before the save show the new values at once", async () => {
    const page = (path: string) => visitor().get(path);
    // Fill the page cache with the current values, then check they are hits.
    const paths = ["/about", "/", "/blog", "/rss.xml"];
    for (const path of paths) await page(path);
    for (const path of paths) expect((await page(path)).headers.get("x-cache"), path).toBe("hit");

    expect(
      (
        await admin.put("/api/admin/settings", {
          companyName: "Ojai After Save",
          contactPhone: "805.555.0199",
          socialUrls: { instagram: "https://www.instagram.com/ojai.tech" },
        })
      ).status,
    ).toBe(200);

    const about = await page("/about");
    expect(about.headers.get("x-cache")).not.toBe("hit");
    expect(about.text).toContain("About | Ojai After Save");
    expect(about.text).toContain('href="tel:8055550199"');
    expect(about.text).toContain("805.555.0199");
    expect(about.text).toContain('href="mailto:team@ojai.example"');
    expect(about.text).not.toContain(">Location<");
    expect(about.text).toMatch(/href="https:\/\/www\.instagram\.com\/ojai\.tech"[^>]*aria-label="Instagram"/);
    expect(about.text).toMatch(/href="https:\/\/www\.linkedin\.com\/company\/ojai-tech"[^>]*aria-label="LinkedIn"/);
    expect(about.text).toMatch(/href="#"[^>]*aria-label="Facebook"/);

    const home = (await page("/")).text;
    expect(home).toContain(
      '<meta name="description" content="Websites, cloud platforms and research, from a small studio in Ojai."/>',
    );
    const jsonLd = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(home)![1]!;
    expect(JSON.parse(jsonLd)).toMatchObject({
      "@type": "Organization",
      name: "Ojai After Save",
      email: "team@ojai.example",
      telephone: "805.555.0199",
      sameAs: ["https://www.instagram.com/ojai.tech", "https://www.linkedin.com/company/ojai-tech"],
    });

    expect((await page("/blog")).text).toContain("Blog | Ojai After Save");
    expect((await page("/rss.xml")).text).toContain("<title>Ojai After Save Blog</title>");
    const [article] = (await page("/api/posts?limit=1")).json as Array<{ slug: string }>;
    const articlePage = (await page(`/blog/${article!.slug}`)).text;
    expect(articlePage).toContain('"publisher":{"@type":"Organization","name":"Ojai After Save"');
  });

  it("a new post's default author is the saved company name", async () => {
    const created = await admin.post("/api/admin/posts", {
      title: "Authored by the company",
      slug: "authored-by-the-company",
      excerpt: "e",
      content: "c",
      published: false,
    });
    expect(created.status).toBe(201);
    expect(created.json.author).toBe("Ojai After Save");
  });

  it("clearing the phone and e-mail leaves them out of the About page, no placeholder", async () => {
    expect(
      (await admin.put("/api/admin/settings", { contactPhone: null, contactEmail: "", location: null })).status,
    ).toBe(200);
    const about = (await visitor().get("/about")).text;
    expect(about).not.toMatch(/tel:|mailto:|example\.com|555|contact-heading/);
  });
});

describe("the Settings form (/admin/settings) without JavaScript", () => {
  const postForm = (fields: Record<string, string>) =>
    fetch(`${server.url}/admin/settings`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: admin.cookie, Origin: server.url },
      body: new URLSearchParams(fields),
    });

  it("answers a refused form with 400, every problem named, and what was typed kept", async () => {
    const response = await postForm({
      companyName: "Typed Company",
      contactEmail: "typed-but-wrong",
      contactPhone: "805 555 0100",
      "socialUrls.facebook": "http://facebook.com/typed",
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("Nothing was saved");
    expect(html).toContain("Contact e-mail must be an e-mail address");
    expect(html).toContain("Facebook page must be an https:// address");
    for (const typed of ["Typed Company", "typed-but-wrong", "805 555 0100", "http://facebook.com/typed"])
      expect(html).toContain(`value="${typed}"`);
    expect((await admin.get("/api/admin/settings")).json.companyName).not.toBe("Typed Company");
  });

  it("saves a valid form", async () => {
    const response = await postForm({ companyName: "Saved By Form", contactPhone: "805 555 0100" });
    expect(response.status).toBe(200);
    expect((await admin.get("/api/admin/settings")).json).toMatchObject({
      companyName: "Saved By Form",
      contactPhone: "805 555 0100",
    });
  });
});

describe("POST /api/admin/backups/run without BACKUP_STORAGE_URL (ADR 076)", () => {
  it("answers 409 saying storage is not configured, and 401 signed out", async () => {
    const answer = await admin.post("/api/admin/backups/run", { password: "whatever it is" });
    expect(answer.status).toBe(409);
    expect(answer.json.error).toContain("BACKUP_STORAGE_URL");
    expect((await visitor().post("/api/admin/backups/run", { password: "x" })).status).toBe(401);
    expect((await admin.get("/healthz")).json).not.toHaveProperty("backup");
  });
});
