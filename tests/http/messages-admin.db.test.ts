import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, startServer, type TestServer } from "../support/server";

/**
 * Issue 16, the inbox (ADR 035): GET /api/admin/messages filtered by read
 * state (`status`) and by name or e-mail (`q`), still paged as docs/product/contract.md#paged-lists
 * says; DELETE /api/admin/messages?email= forgets a sender; GET
 * /api/admin/messages.csv exports what a filter matches; and the
 * /admin/messages screen and the admin navigation's unread count. And the
 * lead desk's numbers (issue 44, ADR 070): the export's lead columns, and
 * the analytics' leads per source and status, over the API and on the
 * Analytics screen.
 */

let server: TestServer;
let admin: ApiClient;
let sent = 0;

interface Message {
  id: string;
  name: string;
  email: string;
  read: boolean;
  createdAt: string;
}

/** Sends a contact message as a visitor; five an hour per address, so each gets its own. */
async function send(name: string, email: string, extra: Record<string, string> = {}) {
  sent += 1;
  const answer = await new ApiClient(server.url).post(
    "/api/contact",
    { name, email, preferredContact: "email", service: "media", message: `Hello from ${name}.`, ...extra },
    { "X-Forwarded-For": `2001:db8:16:${sent.toString(16)}::1` },
  );
  expect(answer.status, answer.text).toBe(201);
}

const FORMULA = '=HYPERLINK("http://evil.example","Click me")';

beforeAll(async () => {
  server = await startServer();
  admin = new ApiClient(server.url);
  await admin.signIn();
  await send("Ann_Lee", "ann.lee@example.com");
  await send("Ann Lee", "ANN.LEE@Example.COM", { message: "Second message, other capitals." });
  await send("AnnXLee", "annx@example.net");
  await send("100% Sure", "sure@example.org");
  await send("100 percent", "percent@example.org");
  await send(String.raw`Back\slash`, "back@example.org");
  await send("@SUM(1+1)", "formula@example.org", { message: FORMULA, phone: "+1 805 555 0100" });
  await send("Zoë Ünal", "zoe@example.org", { message: 'Café, naïve: "quoted",\nand a second line.' });
  // Read: Ann_Lee, 100% Sure.
  for (const item of await inbox("?limit=100").then((page) => page.items))
    if (item.name === "Ann_Lee" || item.name === "100% Sure") {
      const marked = await admin.request("PATCH", `/api/admin/messages/${item.id}`, { read: true });
      expect(marked.status, marked.text).toBe(200);
    }
}, 60_000);
afterAll(() => server?.stop());

async function inbox(query = "") {
  const answer = await admin.get(`/api/admin/messages${query}`);
  expect(answer.status, answer.text).toBe(200);
  return { items: answer.json as Message[], total: Number(answer.headers.get("x-total-count")) };
}
const names = async (query: string) => (await inbox(query)).items.map((item) => item.name).sort();

describe("GET /api/admin/messages: filters", () => {
  it("keeps its contract without filters: every message, newest first, limit, offset, X-Total-Count", async () => {
    const all = await inbox();
    expect(all.total).toBe(8);
    expect(all.items).toHaveLength(8);
    const dates = all.items.map((item) => item.createdAt);
    expect(dates).toEqual([...dates].sort().reverse());
    const second = await inbox("?limit=3&offset=3");
    expect(second.total).toBe(8);
    expect(second.items.map((item) => item.id)).toEqual(all.items.slice(3, 6).map((item) => item.id));
    expect(await inbox("?read=all")).toEqual(all);
  });

  it("filters by read state, X-Total-Count counting the matches", async () => {
    const read = await inbox("?read=read");
    expect(read.total).toBe(2);
    expect(read.items.map((item) => item.name).sort()).toEqual(["100% Sure", "Ann_Lee"]);
    expect(read.items.every((item) => item.read)).toBe(true);
    const unread = await inbox("?read=unread&limit=2");
    expect(unread.total).toBe(6);
    expect(unread.items).toHaveLength(2);
    expect(unread.items.every((item) => !item.read)).toBe(true);
  });

  it("searches name or e-mail, ignoring case, anywhere in either", async () => {
    expect(await names("?q=ANN")).toEqual(["Ann Lee", "AnnXLee", "Ann_Lee"].sort());
    expect(await names("?q=example.ORG")).toEqual(
      ["100 percent", "100% Sure", "@SUM(1+1)", String.raw`Back\slash`, "Zoë Ünal"].sort(),
    );
    expect(await names("?q=%40example.net")).toEqual(["AnnXLee"]);
    expect(await names("?q=nobody")).toEqual([]);
    // Blank is no search.
    expect((await inbox("?q=%20%20")).total).toBe(8);
  });

  it("takes %, _ and \\ in the search as themselves", async () => {
    expect(await names("?q=100%25")).toEqual(["100% Sure"]);
    expect(await names("?q=n_l")).toEqual(["Ann_Lee"]);
    expect(await names("?q=_")).toEqual(["Ann_Lee"]);
    expect(await names("?q=%25")).toEqual(["100% Sure"]);
    expect(await names(`?q=${encodeURIComponent("\\")}`)).toEqual([String.raw`Back\slash`]);
    expect(await names(`?q=${encodeURIComponent("k\\s")}`)).toEqual([String.raw`Back\slash`]);
  });

  it("combines the search with the read state and paging", async () => {
    const page = await inbox("?q=ann&read=unread&limit=1&offset=1");
    expect(page.total).toBe(2);
    expect(page.items).toHaveLength(1);
    expect(await names("?q=ann&read=read")).toEqual(["Ann_Lee"]);
  });

  it.each([
    ["read=archived", "read must be one of all, unread, read"],
    ["read=", "read must be one of all, unread, read"],
    ["read=READ", "read must be one of all, unread, read"],
    [`q=${"x".repeat(201)}`, "q is too long (200 characters at most)"],
    [`q=${"%00".repeat(300)}`, "q is too long (200 characters at most)"],
    [`q=${"a".repeat(10_000)}`, "q is too long (200 characters at most)"],
    ["q=a%00b", "q contains a character that cannot be searched for (a NUL character or an unpaired surrogate)"],
    ["limit=0&q=ann", "limit must be a whole number from 1 to 100"],
  ])("answers 400 for %s, saying what is wrong", async (query, error) => {
    const answer = await admin.get(`/api/admin/messages?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ error });
  });

  it("accepts a 200-character search", async () => {
    expect(await inbox(`?q=${"y".repeat(200)}`)).toEqual({ items: [], total: 0 });
  });

  it("answers 401 without a session, whatever the values", async () => {
    expect((await new ApiClient(server.url).get("/api/admin/messages?read=read")).status).toBe(401);
    expect((await new ApiClient(server.url).get("/api/admin/messages?q=%00")).status).toBe(401);
  });
});

/** A small RFC 4180 reader: quoted fields may hold commas, quotes ("") and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += c;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

async function exportCsv(query = "", client = admin) {
  const response = await fetch(`${server.url}/api/admin/messages.csv${query}`, {
    headers: { Cookie: client.cookie },
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { response, bytes, rows: response.ok ? parseCsv(bytes.subarray(3).toString("utf8")) : [] };
}

const HEADER = [
  "Received (UTC)",
  "Name",
  "Email",
  "Phone",
  "Preferred Contact Method",
  "Service Interest",
  "Message",
  "Read",
  "Read at (UTC)",
  "Status",
  "Follow-up",
  "Note",
  "Source page",
  "Source",
  "Campaign",
];

describe("GET /api/admin/messages.csv", () => {
  it("is a UTF-8 CSV download with a byte-order mark, never cached, newest first", async () => {
    const { response, bytes, rows } = await exportCsv();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="messages-[\dT-]+Z\.csv"$/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(rows[0]).toEqual(HEADER);
    const { items } = await inbox("?limit=100");
    expect(rows.slice(1).map((row) => row[0])).toEqual(items.map((item) => item.createdAt));
    expect(rows.slice(1).every((row) => row.length === HEADER.length)).toBe(true);
  });

  it("keeps accents, quotes, commas and line breaks, and neutralises formulas with an apostrophe", async () => {
    const { rows } = await exportCsv();
    const byEmail = new Map(rows.slice(1).map((row) => [row[2], row]));
    const zoe = byEmail.get("zoe@example.org")!;
    expect(zoe[1]).toBe("Zoë Ünal");
    expect(zoe[6]).toBe('Café, naïve: "quoted",\nand a second line.');
    const formula = byEmail.get("formula@example.org")!;
    expect(formula[1]).toBe("'@SUM(1+1)");
    expect(formula[3]).toBe("'+1 805 555 0100");
    expect(formula[6]).toBe(`'${FORMULA}`);
    expect(formula.slice(4, 6)).toEqual(["Email", "For Media"]);
    const read = byEmail.get("sure@example.org")!;
    expect(read[7]).toBe("yes");
    expect(read[8]).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(byEmail.get("percent@example.org")!.slice(7, 9)).toEqual(["no", ""]);
  });

  it("has each message's status, follow-up day, note and where it came from", async () => {
    const [target] = (await inbox("?q=zoe%40example.org")).items;
    const changed = await admin.request("PATCH", `/api/admin/messages/${target!.id}`, {
      status: "qualified",
      followUpAt: "2026-12-01",
      note: "=Call back on Monday",
    });
    expect(changed.status, changed.text).toBe(200);
    const { rows } = await exportCsv();
    const byEmail = new Map(rows.slice(1).map((row) => [row[2], row]));
    // Sent without a page shown before or a Referer: direct, no page, no campaign; the note is neutralised too.
    expect(byEmail.get("zoe@example.org")!.slice(9)).toEqual([
      "Qualified",
      "2026-12-01",
      "'=Call back on Monday",
      "",
      "direct",
      "",
    ]);
    expect(byEmail.get("percent@example.org")!.slice(9)).toEqual(["New", "", "", "", "direct", ""]);
    const reset = await admin.request("PATCH", `/api/admin/messages/${target!.id}`, {
      status: "new",
      followUpAt: null,
      note: null,
    });
    expect(reset.status, reset.text).toBe(200);
  });

  it("exports what the filter matches, the same as the list", async () => {
    const { rows } = await exportCsv("?q=ann&read=unread");
    expect(
      rows
        .slice(1)
        .map((row) => row[1])
        .sort(),
    ).toEqual(["Ann Lee", "AnnXLee"]);
    const none = await exportCsv("?q=nobody");
    expect(none.rows).toEqual([HEADER]);
  });

  it("answers 400 for a bad filter and 401 without a session, before any CSV", async () => {
    const bad = await exportCsv("?read=old");
    expect(bad.response.status).toBe(400);
    expect(JSON.parse(bad.bytes.toString())).toEqual({ error: "read must be one of all, unread, read" });
    expect((await exportCsv(`?q=${"z".repeat(201)}`)).response.status).toBe(400);
    const anonymous = await exportCsv("", new ApiClient(server.url));
    expect(anonymous.response.status).toBe(401);
    expect(anonymous.response.headers.get("content-disposition")).toBeNull();
  });

  it("refuses other methods", async () => {
    const answer = await admin.post("/api/admin/messages.csv", {});
    expect(answer.status).toBe(405);
  });
});

describe("DELETE /api/admin/messages?email=: forget a sender", () => {
  it("answers 400 for a missing, blank, too long or unstorable address, deleting nothing", async () => {
    for (const [query, error] of [
      ["", "email is required: the sender's e-mail address"],
      ["?email=", "email is required: the sender's e-mail address"],
      ["?email=%20", "email is required: the sender's e-mail address"],
      [`?email=${"a".repeat(321)}`, "email is too long (320 characters at most)"],
      ["?email=a%00b", "email contains a character that cannot be stored (a NUL character or an unpaired surrogate)"],
    ]) {
      const answer = await admin.delete(`/api/admin/messages${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.json).toEqual({ error });
    }
    expect((await inbox()).total).toBe(8);
  });

  it("refuses another origin (403) and a signed-out request (401)", async () => {
    const cross = await admin.delete("/api/admin/messages?email=ann.lee%40example.com", {
      Origin: "https://evil.example",
    });
    expect(cross.status).toBe(403);
    const anonymous = await new ApiClient(server.url).delete("/api/admin/messages?email=ann.lee%40example.com");
    expect(anonymous.status).toBe(401);
    expect((await inbox()).total).toBe(8);
  });

  it("deletes every message from the address, ignoring case, and says how many", async () => {
    const answer = await admin.delete("/api/admin/messages?email=Ann.Lee%40EXAMPLE.com");
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toEqual({ deleted: 2 });
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(await names("?q=ann")).toEqual(["AnnXLee"]);
    // Only that address: a name or an address containing it stays.
    expect((await inbox()).total).toBe(6);
    const again = await admin.delete("/api/admin/messages?email=ann.lee%40example.com");
    expect(again.json).toEqual({ deleted: 0 });
  });

  it("takes % and _ in the address as themselves", async () => {
    const answer = await admin.delete(`/api/admin/messages?email=${encodeURIComponent("%@example.org")}`);
    expect(answer.json).toEqual({ deleted: 0 });
    expect((await inbox()).total).toBe(6);
  });
});

describe("the /admin/messages screen", () => {
  it("filters from the address, shows the count and what matched, and keeps the search on other pages", async () => {
    const page = await admin.get("/admin/messages?read=unread&q=example.org");
    expect(page.status).toBe(200);
    expect(page.text).toContain("4 unread messages match “example.org”.");
    expect(page.text).toContain("Zoë Ünal");
    expect(page.text).not.toContain("100% Sure");
    expect(page.text).toContain(`value="example.org"`);
    expect(page.text).toContain(`href="/api/admin/messages.csv?read=unread&amp;q=example.org"`);
    const none = await admin.get("/admin/messages?q=nothing%20like%20it");
    expect(none.text).toContain("No messages match.");
    const past = await admin.get("/admin/messages?read=read&q=sure&page=4");
    expect(past.status).toBe(302);
    expect(past.headers.get("location")).toBe("/admin/messages?read=read&q=sure");
  });

  it.each(["status=open", "read=new", "q=%00", `q=${"q".repeat(201)}`, "page=0"])(
    "answers 400 for %s",
    async (query) => {
      expect((await admin.get(`/admin/messages?${query}`)).status).toBe(400);
    },
  );

  it("says how many messages each sender has, and the form deletes them all", async () => {
    await send("Repeat One", "repeat@example.com");
    await send("Repeat Two", "Repeat@Example.com");
    await send("Repeat Three", "REPEAT@example.com");
    const page = await admin.get("/admin/messages?q=repeat");
    expect(page.text).toContain("Delete all from this sender (3 messages)");
    const form = new URLSearchParams({ intent: "forget", email: "repeat@EXAMPLE.com" });
    const done = await admin.request("POST", "/admin/messages?q=repeat", form.toString(), {
      "Content-Type": "application/x-www-form-urlencoded",
    });
    expect(done.status, done.text).toBe(200);
    expect(done.text).toContain("Deleted 3 messages from repeat@EXAMPLE.com.");
    expect(await names("?q=repeat")).toEqual([]);
  });

  it("shows the unread count in the admin navigation on every admin screen, as words a screen reader reads", async () => {
    const unread = (await inbox("?read=unread")).total;
    expect(unread).toBeGreaterThan(0);
    for (const path of ["/admin", "/admin/messages", "/admin/settings"]) {
      const page = await admin.get(path);
      expect(page.text, path).toContain(`aria-label="Messages, ${unread} unread"`);
    }
    const [first] = (await inbox("?read=unread&limit=1")).items;
    expect((await admin.request("PATCH", `/api/admin/messages/${first!.id}`, { read: true })).status).toBe(200);
    expect((await admin.get("/admin/settings")).text).toContain(`aria-label="Messages, ${unread - 1} unread"`);
  });
});

describe("GET /api/admin/analytics: leads by source and status (ADR 070)", () => {
  const CHROME =
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
  const today = () => new Date().toISOString().slice(0, 10);
  type Leads = Array<
    { source: string; total: number } & Record<"new" | "contacted" | "qualified" | "won" | "lost", number>
  >;
  const leads = async (range = `from=${today()}&to=${today()}`) => {
    const answer = await admin.get(`/api/admin/analytics?${range}`);
    expect(answer.status, answer.text).toBe(200);
    return answer.json as { leads: Leads; totals: unknown; days: unknown; referrers: unknown };
  };
  /** A message sent as a browser would, from its own address, after the pages it `viewed` (with their Referer). */
  async function sendAs(address: string, name: string, viewed: Array<{ path: string; referer: string }> = []) {
    const visitor = { "X-Forwarded-For": address, "User-Agent": CHROME };
    for (const page of viewed) {
      const view = await new ApiClient(server.url).get(page.path, {
        ...visitor,
        Accept: "text/html,application/xhtml+xml",
        "Sec-Fetch-Dest": "document",
        Referer: page.referer,
      });
      expect(view.status).toBe(200);
    }
    const answer = await new ApiClient(server.url).post(
      "/api/contact",
      { name, email: `${name.toLowerCase()}@example.com`, preferredContact: "email", service: "media", message: "Hi." },
      visitor,
    );
    expect(answer.status, answer.text).toBe(201);
    const [message] = (await inbox(`?q=${name.toLowerCase()}%40example.com&limit=1`)).items;
    return message!.id;
  }
  const setStatus = async (id: string, status: string) => {
    const answer = await admin.request("PATCH", `/api/admin/messages/${id}`, { status });
    expect(answer.status, answer.text).toBe(200);
  };

  it("counts the range's messages per source by status, spam aside, most won first; the keys before stay", async () => {
    const before = await leads();
    expect(Object.keys(before)).toEqual(expect.arrayContaining(["totals", "days", "pages", "referrers", "leads"]));
    const direct = before.leads.find((row) => row.source === "direct")!;
    // Every message so far was sent by a client that showed no page: "direct", each still new.
    expect(before.leads).toEqual([{ ...direct, source: "direct" }]);
    expect(direct.new).toBe(direct.total);

    const won = await sendAs("2001:db8:44::1", "Winner", [
      { path: "/", referer: "https://news.example.org/item?id=7" },
    ]);
    const qualified = await sendAs("2001:db8:44::2", "Maybe", [
      { path: "/about", referer: "https://news.example.org/" },
    ]);
    const contacted = await sendAs("2001:db8:44::3", "Called");
    const spam = await sendAs("2001:db8:44::4", "Spammer");
    const lost = await sendAs("2001:db8:44::5", "Gone");
    await setStatus(won, "won");
    await setStatus(qualified, "qualified");
    await setStatus(contacted, "contacted");
    await setStatus(spam, "spam");
    await setStatus(lost, "lost");

    const after = await leads();
    expect(after.leads).toEqual([
      { source: "news.example.org", total: 2, new: 0, contacted: 0, qualified: 1, won: 1, lost: 0 },
      { ...direct, total: direct.total + 2, contacted: 1, lost: 1 },
    ]);
    // Another range holds none of them.
    expect((await leads("from=2024-01-01&to=2024-01-31")).leads).toEqual([]);
  });

  it("shows them on the Analytics screen as a table, or says there were none", async () => {
    const page = await admin.get("/admin/analytics?days=7");
    expect(page.status).toBe(200);
    expect(page.text).toContain(">Leads by source</caption>");
    for (const column of ["Source", "New", "Contacted", "Qualified", "Won", "Lost", "Total"])
      expect(page.text).toMatch(new RegExp(`<th scope="col" class="[^"]*">${column}</th>`));
    expect(page.text).toContain(">news.example.org</th>");
    const past = await admin.get("/admin/analytics?from=2024-01-01&to=2024-01-31");
    expect(past.text).toContain("No contact messages were received in this period.");
  });
});
