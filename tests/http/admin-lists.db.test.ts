import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, startServer, type TestServer } from "../support/server";

/**
 * docs/product/contract.md#paged-lists: GET /api/admin/posts and GET /api/admin/messages answer one
 * page at a time (limit 1-100, default 50; offset; X-Total-Count), the posts
 * list filtered by title (q) and sorted (sort); and the /admin screens that
 * show them. ADR 026.
 */

let server: TestServer;
let admin: ApiClient;

/** Posts whose titles test the filter; the rest are fillers. Dates are distinct, one day apart. */
const NAMED = [
  "Alpha Cloud Notes",
  "Beta 100% uptime",
  "Gamma 100 percent uptime",
  "snake_case tips",
  "snakeXcase tips",
  String.raw`Paths like C:\temp`,
  "Zebra crossings",
];
const FILLERS = 53;
const TOTAL = NAMED.length + FILLERS;
const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString();

const POST_KEYS = [
  "author",
  "category",
  "createdAt",
  "emailSubscribers",
  "excerpt",
  "headerImage",
  "headerImageAlt",
  "id",
  "metaDescription",
  "metaTitle",
  "noindex",
  "publishDate",
  "published",
  "readTime",
  "slug",
  "title",
  "updatedAt",
].sort();

interface Item {
  id: string;
  title: string;
  slug: string;
  publishDate: string;
  published: boolean;
}

beforeAll(async () => {
  server = await startServer();
  admin = new ApiClient(server.url);
  await admin.signIn();
  const titles = [...NAMED, ...Array.from({ length: FILLERS }, (_, i) => `Filler post ${String(i).padStart(2, "0")}`)];
  for (const [i, title] of titles.entries()) {
    const created = await admin.post("/api/admin/posts", {
      title,
      slug: `post-${i}`,
      excerpt: "An excerpt",
      content: `# ${title}\n\n${"Words of the body. ".repeat(50)}`,
      category: "Lists",
      // Drafts and scheduled posts are listed too.
      published: i % 3 !== 0,
      publishDate: i === 1 ? "2099-01-01T00:00:00.000Z" : day(i),
    });
    expect(created.status, created.text).toBe(201);
  }
}, 60_000);
afterAll(() => server?.stop());

const list = async (query = "") => {
  const answer = await admin.get(`/api/admin/posts${query}`);
  expect(answer.status, answer.text).toBe(200);
  return { items: answer.json as Item[], total: Number(answer.headers.get("x-total-count")) };
};
const titlesOf = (items: Item[]) => items.map((item) => item.title);

describe("GET /api/admin/posts", () => {
  it("answers the first 50 posts, newest publishDate first, drafts and scheduled included, with X-Total-Count", async () => {
    const { items, total } = await list();
    expect(total).toBe(TOTAL);
    expect(items).toHaveLength(50);
    expect(items[0]!.title).toBe("Beta 100% uptime"); // scheduled for 2099
    expect(items[1]!.title).toBe(`Filler post ${FILLERS - 1}`);
    const dates = items.map((item) => item.publishDate);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(items.some((item) => !item.published)).toBe(true);
  });

  it("leaves the markdown and the HTML out of the list; GET /api/admin/posts/{id} has the whole post", async () => {
    const { items } = await list("?limit=100");
    for (const item of items) expect(Object.keys(item).sort()).toEqual(POST_KEYS);
    const answer = await admin.get("/api/admin/posts?limit=100");
    expect(answer.text).not.toMatch(/content|Words of the body/i);
    const whole = await admin.get(`/api/admin/posts/${items[0]!.id}`);
    expect(whole.json).toEqual({ ...items[0], content: expect.stringContaining("Words of the body.") });
  });

  it("pages with limit and offset: the pages together are the whole list, each once", async () => {
    const whole = (await list("?limit=100")).items.map((item) => item.id);
    expect(whole).toHaveLength(TOTAL);
    const paged: string[] = [];
    for (let offset = 0; offset < TOTAL; offset += 7) {
      const { items, total } = await list(`?limit=7&offset=${offset}`);
      expect(total).toBe(TOTAL);
      expect(items.length).toBe(Math.min(7, TOTAL - offset));
      paged.push(...items.map((item) => item.id));
    }
    expect(paged).toEqual(whole);
    expect(await list(`?offset=${TOTAL}`)).toEqual({ items: [], total: TOTAL });
    expect(await list("?limit=1&offset=1000000")).toEqual({ items: [], total: TOTAL });
  });

  it.each([
    ["limit=0", "limit must be a whole number from 1 to 100"],
    ["limit=101", "limit must be a whole number from 1 to 100"],
    ["limit=-1", "limit must be a whole number from 1 to 100"],
    ["limit=1.5", "limit must be a whole number from 1 to 100"],
    ["limit=1e2", "limit must be a whole number from 1 to 100"],
    ["limit=%2010", "limit must be a whole number from 1 to 100"],
    ["limit=", "limit must be a whole number from 1 to 100"],
    ["limit=ten", "limit must be a whole number from 1 to 100"],
    ["limit=99999999999999999999", "limit must be a whole number from 1 to 100"],
    ["offset=-1", "offset must be a whole number from 0 to 1,000,000"],
    ["offset=1000001", "offset must be a whole number from 0 to 1,000,000"],
    ["offset=0x10", "offset must be a whole number from 0 to 1,000,000"],
    ["offset=1e3", "offset must be a whole number from 0 to 1,000,000"],
    ["sort=TITLE", "sort must be one of -publishDate, publishDate, title, -title"],
    ["sort=content", "sort must be one of -publishDate, publishDate, title, -title"],
    ["sort=", "sort must be one of -publishDate, publishDate, title, -title"],
    [`q=${"x".repeat(201)}`, "q is too long (200 characters at most)"],
    [`q=${"%00".repeat(300)}`, "q is too long (200 characters at most)"],
  ])("answers 400 for %s, saying what is wrong", async (query, error) => {
    const answer = await admin.get(`/api/admin/posts?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ error });
  });

  it.each(["q=%00", "q=a%00b", "q=%00%25"])(
    "answers 400 for a NUL in the title filter (%s), on every backend",
    async (query) => {
      const answer = await admin.get(`/api/admin/posts?${query}`);
      expect(answer.status).toBe(400);
      expect(answer.json.error).toMatch(/^q contains a character that cannot be searched for/);
    },
  );

  it("accepts the largest values", async () => {
    expect((await list("?limit=100")).items).toHaveLength(TOTAL);
    const longest = await list(`?q=${"y".repeat(200)}`);
    expect(longest).toEqual({ items: [], total: 0 });
  });

  it("asks for a session before anything else: 401 for a signed-out request with bad values", async () => {
    const answer = await new ApiClient(server.url).get("/api/admin/posts?limit=0&q=%00");
    expect(answer.status).toBe(401);
  });

  it("filters by title, ignoring case, with X-Total-Count counting the matches", async () => {
    expect(titlesOf((await list("?q=alpha%20CLOUD")).items)).toEqual(["Alpha Cloud Notes"]);
    const fillers = await list("?q=FILLER&limit=5&offset=50");
    expect(fillers.total).toBe(FILLERS);
    expect(fillers.items).toHaveLength(3);
    expect(titlesOf(fillers.items)).toEqual(["Filler post 02", "Filler post 01", "Filler post 00"]);
    expect(await list("?q=no%20such%20title")).toEqual({ items: [], total: 0 });
    // An empty filter is no filter.
    expect((await list("?q=")).total).toBe(TOTAL);
  });

  it("takes %, _ and \\ in the filter as themselves", async () => {
    // As wildcards, "100%" would match "100 percent" and "e_c" would match "eXc".
    expect(await list("?q=100%25")).toMatchObject({ total: 1, items: [{ title: "Beta 100% uptime" }] });
    expect(await list("?q=e_c")).toMatchObject({ total: 1, items: [{ title: "snake_case tips" }] });
    expect(await list("?q=%25")).toMatchObject({ total: 1 });
    expect(await list("?q=_")).toMatchObject({ total: 1 });
    expect(await list(`?q=${encodeURIComponent("C:\\temp")}`)).toMatchObject({
      total: 1,
      items: [{ title: String.raw`Paths like C:\temp` }],
    });
    expect(await list(`?q=${encodeURIComponent("\\")}`)).toMatchObject({ total: 1 });
    expect(await list(`?q=${encodeURIComponent("C:\\")}%25`)).toEqual({ items: [], total: 0 });
  });

  it("finds the text anywhere in a title, quotes included, and follows a rename and a deletion (ADR 030)", async () => {
    // In the middle of a word, across words, in any case.
    expect(titlesOf((await list("?q=KE_CA")).items)).toEqual(["snake_case tips"]);
    expect(titlesOf((await list("?q=uD%20nO")).items)).toEqual(["Alpha Cloud Notes"]);
    const post = {
      title: `It's "quoted": 50% off_now`,
      slug: "quoted-title",
      excerpt: "An excerpt",
      content: "Body.",
      category: "Lists",
      published: false,
      publishDate: day(-1),
    };
    const created = await admin.post("/api/admin/posts", post);
    expect(created.status, created.text).toBe(201);
    const only = { total: 1, items: [{ id: created.json.id }] };
    expect(await list(`?q=${encodeURIComponent(`'S "QUOTED": 50% OFF_`)}`)).toMatchObject(only);
    expect(await list(`?q=${encodeURIComponent('"')}`)).toMatchObject(only);
    expect(await list(`?q=${encodeURIComponent("'s \"")}`)).toMatchObject(only);
    expect(await list(`?q=${encodeURIComponent('"quoted"" ')}`)).toEqual({ items: [], total: 0 });

    const renamed = await admin.put(`/api/admin/posts/${created.json.id}`, { ...post, title: "Renamed: Kite Flying" });
    expect(renamed.status, renamed.text).toBe(200);
    expect(await list("?q=quoted")).toEqual({ items: [], total: 0 });
    expect(await list("?q=kite%20FLY")).toMatchObject(only);

    expect((await admin.delete(`/api/admin/posts/${created.json.id}`)).status).toBe(204);
    expect(await list("?q=kite%20fly")).toEqual({ items: [], total: 0 });
    expect((await list()).total).toBe(TOTAL);
  });

  it("sorts by publishDate or title either way, on request; ties and pages keep one order", async () => {
    const newest = (await list("?limit=100")).items;
    const oldest = (await list("?limit=100&sort=publishDate")).items;
    expect(oldest.map((item) => item.id)).toEqual(newest.map((item) => item.id).reverse());
    expect((await list("?limit=100&sort=-publishDate")).items).toEqual(newest);

    const aToZ = titlesOf((await list("?limit=100&sort=title")).items);
    expect(aToZ.slice(0, 3)).toEqual(["Alpha Cloud Notes", "Beta 100% uptime", "Filler post 00"]);
    expect(aToZ.at(-1)).toBe("Zebra crossings");
    // Case does not decide the order: "snake_case" (lower case) sorts before "Zebra".
    expect(aToZ.indexOf("snake_case tips")).toBeLessThan(aToZ.indexOf("Zebra crossings"));
    const zToA = titlesOf((await list("?limit=100&sort=-title")).items);
    expect(zToA).toEqual([...aToZ].reverse());
    const secondPage = await list("?limit=10&offset=10&sort=title&q=filler");
    expect(titlesOf(secondPage.items)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Filler post ${String(10 + i).padStart(2, "0")}`),
    );
    expect(secondPage.total).toBe(FILLERS);
  });

  it("refuses a 10,000-character filter", async () => {
    const answer = await admin.get(`/api/admin/posts?q=${"a".repeat(10_000)}`);
    expect(answer.status).toBe(400);
  });
});

describe("the /admin screen's list", () => {
  it("shows one page of 50, its place and the count; a page past the end goes to the last page", async () => {
    const first = await admin.get("/admin");
    expect(first.status).toBe(200);
    expect(first.text).toContain(`${TOTAL} posts, page 1 of 2`);
    expect(first.text).toContain("Filler post 52");
    expect(first.text).not.toContain("Alpha Cloud Notes"); // the oldest: page 2
    const second = await admin.get("/admin?page=2");
    expect(second.text).toContain("Alpha Cloud Notes");
    const past = await admin.get("/admin?page=9&q=filler&sort=title");
    expect(past.status).toBe(302);
    expect(past.headers.get("location")).toBe("/admin?q=filler&sort=title&page=2");
  });

  it("filters and sorts from the address", async () => {
    const page = await admin.get("/admin?q=100%25&sort=-title");
    expect(page.text).toContain("1 post matches “100%”");
    expect(page.text).toContain("Beta 100% uptime");
    expect(page.text).not.toContain("Gamma 100 percent uptime");
    const none = await admin.get("/admin?q=nothing%20like%20it");
    expect(none.text).toContain("No posts match “nothing like it”.");
  });

  it.each(["page=0", "page=x", "q=%00", "sort=random", `q=${"q".repeat(201)}`])("answers 400 for %s", async (query) => {
    expect((await admin.get(`/admin?${query}`)).status).toBe(400);
  });
});

describe("GET /api/admin/messages", () => {
  const MESSAGES = 62;
  beforeAll(async () => {
    // The contact form takes 5 messages an hour from one address: one address per 5.
    for (let i = 0; i < MESSAGES; i++) {
      const sent = await new ApiClient(server.url).post(
        "/api/contact",
        {
          name: `Sender ${String(i).padStart(2, "0")}`,
          email: "sender@example.com",
          preferredContact: "email",
          service: "media",
          message: `Message number ${i}.`,
        },
        { "X-Forwarded-For": `192.0.2.${Math.floor(i / 5) + 1}` },
      );
      expect(sent.status, sent.text).toBe(201);
    }
  }, 60_000);

  const inbox = async (query = "") => {
    const answer = await admin.get(`/api/admin/messages${query}`);
    expect(answer.status, answer.text).toBe(200);
    return {
      items: answer.json as Array<{ id: string; name: string; message: string; createdAt: string }>,
      total: Number(answer.headers.get("x-total-count")),
    };
  };

  it("answers the newest 50 with X-Total-Count, and pages with limit and offset", async () => {
    const first = await inbox();
    expect(first.total).toBe(MESSAGES);
    expect(first.items).toHaveLength(50);
    const dates = first.items.map((m) => m.createdAt);
    expect(dates).toEqual([...dates].sort().reverse());
    // Sent one after another: the last ones are the newest (two may share a millisecond).
    expect(first.items.slice(0, 2).map((m) => m.name)).toContain(`Sender ${MESSAGES - 1}`);
    expect(first.items.find((m) => m.name === "Sender 30")?.message).toBe("Message number 30.");
    const all = (await inbox("?limit=100")).items.map((m) => m.id);
    const paged: string[] = [];
    for (let offset = 0; offset < MESSAGES; offset += 9)
      paged.push(...(await inbox(`?limit=9&offset=${offset}`)).items.map((m) => m.id));
    expect(paged).toEqual(all);
    expect(all).toHaveLength(MESSAGES);
  });

  it.each([
    ["limit=0", "limit must be a whole number from 1 to 100"],
    ["limit=101", "limit must be a whole number from 1 to 100"],
    ["offset=-5", "offset must be a whole number from 0 to 1,000,000"],
    ["offset=2000000", "offset must be a whole number from 0 to 1,000,000"],
  ])("answers 400 for %s", async (query, error) => {
    const answer = await admin.get(`/api/admin/messages?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ error });
  });

  it("the /admin/messages screen shows one page, its place, the count and the unread count", async () => {
    const [newest] = (await inbox("?limit=1")).items;
    expect((await admin.request("PATCH", `/api/admin/messages/${newest!.id}`, { read: true })).status).toBe(200);
    const page = await admin.get("/admin/messages?page=2");
    expect(page.status).toBe(200);
    expect(page.text).toContain(`${MESSAGES} messages in all, ${MESSAGES - 1} unread; page 2 of 2.`);
    expect(page.text).toContain("Sender 00");
    expect(page.text).not.toContain(`Sender ${MESSAGES - 1}`);
    const past = await admin.get("/admin/messages?page=3");
    expect(past.status).toBe(302);
    expect(past.headers.get("location")).toBe("/admin/messages?page=2");
    expect((await admin.get("/admin/messages?page=-1")).status).toBe(400);
  });
});
