import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultContent } from "~/content/site-content-defaults";
import type { AboutContent, LandingContent, PrivacyContent } from "~/lib/site-content";
import { ApiClient, startServer, type TestServer } from "../support/server";

/**
 * Site content (issue 30, ADR 053, docs/api.md#site-content-admin): GET and
 * PUT /api/admin/content/{name}, drafts, revisions, previews and share links.
 * A new database answers the original copy; a bad document is a 400 naming
 * its first bad field and saves nothing; a publish shows on the next request
 * of the public page, cached or not; every version is kept and can be
 * published again.
 */

let server: TestServer;
let admin: ApiClient;
const visitor = () => new ApiClient(server.url);

beforeAll(async () => {
  server = await startServer({ SEED_SAMPLE_POSTS: "false" });
  admin = new ApiClient(server.url);
  await admin.signIn();
});
afterAll(() => server?.stop());

const landing = (): LandingContent => defaultContent("landing");
const about = (): AboutContent => defaultContent("about");
const privacy = (): PrivacyContent => defaultContent("privacy");

/** A copy of the landing document with one change made by `edit`. */
function changed(edit: (doc: any) => void): LandingContent {
  const doc = landing();
  edit(doc);
  return doc;
}

describe("signing in", () => {
  it.each([
    ["GET", "/api/admin/content"],
    ["GET", "/api/admin/content/landing"],
    ["PUT", "/api/admin/content/landing"],
    ["GET", "/api/admin/content/about/draft"],
    ["PUT", "/api/admin/content/about/draft"],
    ["DELETE", "/api/admin/content/about/draft"],
    ["GET", "/api/admin/content/about/revisions"],
    ["GET", "/api/admin/content/about/share-links"],
    ["POST", "/api/admin/content/about/share-links"],
    ["GET", "/api/admin/content/privacy"],
    ["PUT", "/api/admin/content/privacy"],
    ["POST", "/api/admin/content"],
  ])("%s %s answers 401 without a session", async (method, path) => {
    const answer = await visitor().request(
      method,
      path,
      method === "GET" || method === "DELETE" ? undefined : landing(),
    );
    expect(answer.status).toBe(401);
  });

  it("a cross-origin PUT with the session is refused with 403 and changes nothing", async () => {
    const forged = await admin.put(
      "/api/admin/content/landing",
      changed((doc) => (doc.media.packages[0].price = "$1")),
      { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    );
    expect(forged.status).toBe(403);
    expect((await admin.get("/api/admin/content/landing")).json).toEqual(landing());
  });
});

describe("a new database", () => {
  it("lists the editable pages by name, each the original copy", async () => {
    const list = await admin.get("/api/admin/content");
    expect(list.status).toBe(200);
    expect(list.headers.get("cache-control")).toBe("no-store");
    expect(list.json.map((page: { name: string }) => page.name)).toEqual(["landing", "about", "contact", "privacy"]);
    expect(list.json[0]).toMatchObject({ version: 0, publishedAt: null, hasDraft: false });
  });

  it("answers the documents the public pages show, with the original prices and team", async () => {
    const answer = await admin.get("/api/admin/content/landing");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("etag")).toBe('"0"');
    expect(answer.json).toEqual(landing());
    expect(answer.json.media.packages.map((p: { price: string }) => p.price)).toEqual([
      "$1,000",
      "$2,500",
      "$3,500",
      "$5,500+",
    ]);
    const team = (await admin.get("/api/admin/content/about")).json.team.members;
    expect(team.map((m: { role: string }) => m.role)).toEqual(["Founder and CEO", "Chief Creative Officer"]);
    expect((await admin.get("/api/admin/content/contact")).json.messages).toHaveLength(10);
  });

  it("answers 404 for a page that is not editable", async () => {
    expect((await admin.get("/api/admin/content/blog")).status).toBe(404);
    expect((await admin.get(`/api/admin/content/${"x".repeat(5000)}`)).status).toBe(404);
    expect((await admin.put("/api/admin/content/blog", landing())).status).toBe(404);
  });
});

describe("PUT refuses a bad document with 400 naming the first bad field, and saves nothing", () => {
  it.each([
    ["an empty price", (d: any) => (d.media.packages[0].price = "  "), "media.packages[0].price", /must not be empty/],
    [
      "a price too long",
      (d: any) => (d.media.packages[1].price = "9".repeat(41)),
      "media.packages[1].price",
      /too long \(40/,
    ],
    [
      "a price that is a number",
      (d: any) => (d.media.packages[0].price = 1000),
      "media.packages[0].price",
      /must be text/,
    ],
    ["a missing field", (d: any) => delete d.systems.claim, "systems.claim", /must be text/],
    ["an unknown field", (d: any) => (d.media.discount = "10%"), "media", /does not know: discount/],
    [
      "a heading of two lines",
      (d: any) => (d.media.packagesHeading = "Web\ndesign"),
      "media.packagesHeading",
      /one line/,
    ],
    ["no packages", (d: any) => (d.media.packages = []), "media.packages", /at least one/],
    [
      "nine packages",
      (d: any) => (d.media.packages = Array.from({ length: 9 }, () => d.media.packages[0])),
      "media.packages",
      /too many items \(8/,
    ],
    [
      "featured as text",
      (d: any) => (d.media.packages[2].featured = "yes"),
      "media.packages[2].featured",
      /true or false/,
    ],
    [
      "a feature too long",
      (d: any) => (d.research.projects[3].summary = "s".repeat(601)),
      "research.projects[3].summary",
      /too long/,
    ],
    ["a list that is an object", (d: any) => (d.media.addOns = { name: "x" }), "media.addOns", /must be a list/],
  ])("%s", async (_, edit, field, message) => {
    const answer = await admin.put("/api/admin/content/landing", changed(edit));
    expect(answer.status).toBe(400);
    expect(answer.json.field).toBe(field);
    expect(answer.json.error).toMatch(new RegExp(`^${field.replace(/[[\].]/g, "\\$&")} `));
    expect(answer.json.error).toMatch(message);
    const now = await admin.get("/api/admin/content/landing");
    expect(now.json).toEqual(landing());
    expect(now.headers.get("etag")).toBe('"0"');
  });

  it.each([
    ["a photo elsewhere", { url: "https://evil.example/me.jpg", alt: "Me" }, "team.members[0].photo.url"],
    ["a script address", { url: "javascript:alert(1)", alt: "Me" }, "team.members[0].photo.url"],
    ["a photo without its description", { url: "/images/abc.webp", alt: "" }, "team.members[0].photo.alt"],
  ])("about: %s", async (_, photo, field) => {
    const doc = about() as any;
    doc.team.members[0].photo = photo;
    const answer = await admin.put("/api/admin/content/about", doc);
    expect(answer.status).toBe(400);
    expect(answer.json.field).toBe(field);
  });

  it("a NUL character, a body that is not an object, and a body over the limit", async () => {
    const nul = await admin.put(
      "/api/admin/content/landing",
      changed((d) => (d.media.intro = "a\u0000b")),
    );
    expect(nul.status).toBe(400);
    expect(nul.json.error).toMatch(/media\.intro.*cannot be stored/);
    expect((await admin.put("/api/admin/content/landing", [landing()])).status).toBe(400);
    expect((await admin.put("/api/admin/content/landing", "{not json")).status).toBe(400);
    const huge = await admin.put(
      "/api/admin/content/landing",
      changed((d) => (d.media.intro = "x".repeat(300_000))),
    );
    expect(huge.status).toBe(413);
    expect((await admin.get("/api/admin/content/landing")).headers.get("etag")).toBe('"0"');
  });
});

describe("publishing", () => {
  it("shows on the next request of the public page, cached or not, and keeps the version it replaces", async () => {
    const page = () => visitor().get("/");
    await page();
    expect((await page()).headers.get("x-cache")).toBe("hit");
    expect((await page()).text).toContain("$2,500");

    const doc = changed((d) => {
      d.media.packages[1].price = "$2,750";
      d.research.projects[0].name = "Garden Sensors <beta>";
    });
    const published = await admin.put("/api/admin/content/landing", doc);
    expect(published.status).toBe(200);
    expect(published.headers.get("etag")).toBe('"1"');
    expect(published.json).toEqual(doc);

    const after = await page();
    expect(after.headers.get("x-cache")).not.toBe("hit");
    expect(after.text).toContain("$2,750");
    expect(after.text).not.toContain("$2,500");
    expect(after.text).toContain("Garden Sensors &lt;beta&gt;");
    expect((await admin.get("/api/admin/content/landing")).json).toEqual(doc);

    const { revisions } = (await admin.get("/api/admin/content/landing/revisions")).json;
    expect(revisions.map((r: { version: number }) => r.version)).toEqual([1, 0]);
    expect(revisions[0].publishedBy).toBe("admin@example.com");
    const original = await admin.get(`/api/admin/content/landing/revisions/${revisions[1].id}`);
    expect(original.json.document).toEqual(landing());

    const audit = await admin.get("/api/admin/audit?action=page-published");
    expect(audit.json[0]).toMatchObject({ action: "page-published", target: "landing (version 1)" });
  });

  it("a kept version is restored by publishing it again; the restored page shows at once", async () => {
    const { revisions } = (await admin.get("/api/admin/content/landing/revisions")).json;
    const original = (await admin.get(`/api/admin/content/landing/revisions/${revisions.at(-1).id}`)).json;
    const restored = await admin.put("/api/admin/content/landing", original.document, { "If-Match": '"1"' });
    expect(restored.status).toBe(200);
    expect(restored.headers.get("etag")).toBe('"2"');
    expect((await visitor().get("/")).text).toContain("$2,500");
    const now = (await admin.get("/api/admin/content/landing/revisions")).json.revisions;
    expect(now.map((r: { version: number }) => r.version)).toEqual([2, 1, 0]);
  });

  it("with If-Match naming an older version, 409 and nothing saved", async () => {
    const stale = await admin.put(
      "/api/admin/content/landing",
      changed((d) => (d.media.cta = "Late")),
      {
        "If-Match": '"1"',
      },
    );
    expect(stale.status).toBe(409);
    expect(stale.json).toMatchObject({ version: 2 });
    expect((await admin.put("/api/admin/content/landing", landing(), { "If-Match": "W/1" })).status).toBe(400);
    expect((await admin.get("/api/admin/content/landing")).json.media.cta).toBe("Start your project");
  });

  it("publishes sent at once each become a version of their own", async () => {
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => admin.put("/api/admin/content/about", { ...about(), tagline: `Tagline ${n}` })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const versions = answers.map((a) => Number(a.headers.get("etag")!.replaceAll('"', "")));
    expect(new Set(versions).size).toBe(5);
    const { revisions } = (await admin.get("/api/admin/content/about/revisions")).json;
    expect(revisions.map((r: { version: number }) => r.version)).toEqual([5, 4, 3, 2, 1, 0]);
    expect((await admin.put("/api/admin/content/about", about())).status).toBe(200);
  });

  it("the contact sentences reach the page only once changed, escaped for a script element", async () => {
    expect((await visitor().get("/about")).text).not.toContain('id="contact-messages"');
    const messages = ["Hello </script><script>alert(1)</script>", "Second sentence"];
    expect((await admin.put("/api/admin/content/contact", { messages })).status).toBe(200);
    const html = (await visitor().get("/about")).text;
    const script = /<script type="application\/json" id="contact-messages">([^<]*)<\/script>/.exec(html);
    expect(script).not.toBeNull();
    expect(JSON.parse(script![1]!)).toEqual(messages);
    expect((await admin.put("/api/admin/content/contact", defaultContent("contact"))).status).toBe(200);
    expect((await visitor().get("/about")).text).not.toContain('id="contact-messages"');
  });
});

describe("drafts, previews and share links", () => {
  const draft = () => {
    const doc = about();
    doc.team.members[0]!.name = "Ana Ruiz";
    return doc;
  };

  it("a draft is seen by administrators' previews and share links, never by visitors", async () => {
    const version = Number((await admin.get("/api/admin/content/about")).headers.get("etag")!.replaceAll('"', ""));
    const saved = await admin.put("/api/admin/content/about/draft", {
      document: draft(),
      baseVersion: version,
      overDraftVersion: 0,
    });
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({ baseVersion: version, draftVersion: 1, savedBy: "admin@example.com" });
    expect((await visitor().get("/about")).text).not.toContain("Ana Ruiz");

    const preview = await admin.get("/pages/preview/about");
    expect(preview.status).toBe(200);
    expect(preview.text).toContain("Ana Ruiz");
    expect(preview.headers.get("cache-control")).toBe("private, no-store");
    expect(preview.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    expect((await visitor().get("/pages/preview/about")).status).toBe(302);

    const link = await admin.post("/api/admin/content/about/share-links");
    expect(link.status).toBe(201);
    const path = new URL(link.json.url).pathname;
    expect(path).toMatch(/^\/pages\/preview\/about\/[\w-]{43}$/);
    const shared = await visitor().get(path);
    expect(shared.status).toBe(200);
    expect(shared.text).toContain("Ana Ruiz");
    expect((await visitor().get(path.replace("/about/", "/landing/"))).status).toBe(404);
    // Another token: its last character changed (to another one: a token may end in "A").
    const other = `${path.slice(0, -1)}${path.endsWith("A") ? "B" : "A"}`;
    expect((await visitor().get(other)).status).toBe(404);
    expect((await admin.get("/api/admin/content/about/share-links")).json.links).toHaveLength(1);
    expect((await admin.get("/api/admin/content")).json[1]).toMatchObject({ name: "about", hasDraft: true });
  });

  it("a draft saved over one the tab has not seen is refused with 409", async () => {
    const current = (await admin.get("/api/admin/content/about/draft")).json;
    const late = await admin.put("/api/admin/content/about/draft", {
      document: about(),
      baseVersion: current.baseVersion,
      overDraftVersion: 0,
    });
    expect(late.status).toBe(409);
    expect(late.json).toMatchObject({ draftVersion: current.draftVersion });
    expect((await admin.get("/api/admin/content/about/draft")).json.document.team.members[0].name).toBe("Ana Ruiz");
    const invalid = await admin.put("/api/admin/content/about/draft", {
      document: { ...about(), tagline: "" },
      baseVersion: current.baseVersion,
      overDraftVersion: current.draftVersion,
    });
    expect(invalid.status).toBe(400);
    expect(invalid.json.field).toBe("tagline");
    const badVersion = await admin.put("/api/admin/content/about/draft", {
      document: about(),
      baseVersion: -1,
      overDraftVersion: current.draftVersion,
    });
    expect(badVersion.status).toBe(400);
  });

  it("publishing with discardDraft=1 makes the draft public and drops it", async () => {
    const published = await admin.put("/api/admin/content/about?discardDraft=1", draft());
    expect(published.status).toBe(200);
    expect((await visitor().get("/about")).text).toContain("Ana Ruiz");
    expect((await admin.get("/api/admin/content/about/draft")).status).toBe(404);
    expect((await admin.put("/api/admin/content/about", about())).status).toBe(200);
  });
});

describe("the privacy page (issue 47)", () => {
  /** The headings of /privacy's main content, in order. */
  const headings = (html: string) => {
    const main = html.slice(html.indexOf("<main"), html.indexOf("</main>"));
    return [...main.matchAll(/<h([123])[^>]*>([^<]*)<\/h\1>/g)].map((match) => match[2]);
  };

  it("starts with the notice of what the site keeps: messages, bookings, subscribers, cookieless counts", async () => {
    const page = await visitor().get("/privacy");
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("public, no-cache");
    expect(page.text).toMatch(/<link rel="canonical" href="[^"]*\/privacy"/);
    const original = privacy();
    expect(headings(page.text)).toEqual([
      "Privacy",
      "What we keep about you",
      "Messages",
      "Booked calls",
      "Newsletter subscribers",
      "Visit counts, without cookies",
      "Logs",
      ...original.sections.map((section) => section.heading),
    ]);
    expect(page.text).not.toContain("Last updated");
    expect((await visitor().get("/privacy")).headers.get("x-cache")).toBe("hit");
  });

  it("shows a published change on the next request, with the day it was published", async () => {
    const doc = privacy();
    doc.intro = "We keep very little, and say so here.";
    doc.keeps.items[0]!.body = "Messages stay until we delete them.";
    const published = await admin.put("/api/admin/content/privacy", doc);
    expect(published.status).toBe(200);
    const page = await visitor().get("/privacy");
    expect(page.headers.get("x-cache")).not.toBe("hit");
    expect(page.text).toContain("We keep very little, and say so here.");
    expect(page.text).toContain("Messages stay until we delete them.");
    expect(page.text).toMatch(/Last updated <time dateTime="\d{4}-\d\d-\d\dT[^"]+">[A-Z][a-z]+ \d{1,2}, \d{4}<\/time>/);
    expect((await admin.put("/api/admin/content/privacy", privacy())).status).toBe(200);
  });

  it.each([
    ["an empty notice", (d: any) => (d.keeps.items = []), "keeps.items", /at least one/],
    ["an item without a name", (d: any) => (d.keeps.items[1].name = " "), "keeps.items[1].name", /must not be empty/],
    [
      "a section without paragraphs",
      (d: any) => (d.sections[0].paragraphs = []),
      "sections[0].paragraphs",
      /at least one/,
    ],
    ["an unknown field", (d: any) => (d.cookies = "none"), "document", /does not know: cookies/],
  ])("refuses %s with 400 naming the field", async (_, edit, field, message) => {
    const doc = privacy() as any;
    edit(doc);
    const answer = await admin.put("/api/admin/content/privacy", doc);
    expect(answer.status).toBe(400);
    expect(answer.json.field).toBe(field);
    expect(answer.json.error).toMatch(message);
  });

  it("previews a draft for administrators and share links, never for visitors", async () => {
    const version = Number((await admin.get("/api/admin/content/privacy")).headers.get("etag")!.replaceAll('"', ""));
    const doc = privacy();
    doc.heading = "Privacy, drafted";
    const saved = await admin.put("/api/admin/content/privacy/draft", {
      document: doc,
      baseVersion: version,
      overDraftVersion: 0,
    });
    expect(saved.status).toBe(200);
    expect((await visitor().get("/privacy")).text).not.toContain("Privacy, drafted");
    expect((await admin.get("/pages/preview/privacy")).text).toContain("Privacy, drafted");
    expect((await visitor().get("/pages/preview/privacy")).status).toBe(302);
    const link = await admin.post("/api/admin/content/privacy/share-links");
    const path = new URL(link.json.url).pathname;
    expect(path).toMatch(/^\/pages\/preview\/privacy\/[\w-]{43}$/);
    const shared = await visitor().get(path);
    expect(shared.status).toBe(200);
    expect(shared.text).toContain("Privacy, drafted");
    expect(shared.headers.get("cache-control")).toBe("private, no-store");
    expect((await visitor().get(path.replace("/privacy/", "/about/"))).status).toBe(404);
    expect((await admin.delete("/api/admin/content/privacy/draft")).status).toBe(204);
  });
});
