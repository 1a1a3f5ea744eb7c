import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatCallTime } from "~/lib/call-time";
import { cancelBooking, findBookingByToken, init as initBooking } from "~/server/booking/index.server";
import { connect, type Connection } from "~/server/db/db.server";
import { init as initMail } from "~/server/mail/index.server";
import { resolveDatabase } from "~/server/platform/config.server";
import { TEST_BACKEND } from "../support/backend";
import { calendarOf, plainTextOf } from "../support/calendar";
import { postAllAtOnce } from "../support/parallel";
import { startReceiver, type Receiver } from "../support/receiver";
import { ApiClient, startServer, TEST_ADMIN, TEST_TOTP_KEY, type TestServer } from "../support/server";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp";

/**
 * Booking a call (issue 45, ADR 071) over HTTP on the built server, a real
 * SMTP server and a webhook receiver: the owner's availability round-trips
 * and every bad field is named; /slots answers free slots only and checks
 * its dates; a booking answers 201 once for a slot however many ask at once
 * (from many addresses or one), 400 for a time not offered, 409 for a taken
 * one or a fourth open call of one address; it reaches the inbox, the
 * visitor's and the owner's mail as one calendar event (parsed with ical.js)
 * and a webhook; cancelled, the slot is free again and both get a CANCEL of
 * the same event. Input PostgreSQL cannot store, or too much of it, is a
 * 400 or 413, never a 500.
 */

const ROOT = new URL("../..", import.meta.url).pathname;
const ZONE = "America/Los_Angeles";
const HOURS = {
  enabled: true,
  timeZone: ZONE,
  slotMinutes: 30,
  bufferMinutes: 15,
  minNoticeHours: 2,
  horizonDays: 30,
  weekly: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, start: "08:00", end: "18:00" })),
  daysOff: [] as string[],
};
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface Slot {
  start: string;
  end: string;
}

let server: TestServer;
let smtp: TestSmtpServer;
let admin: ApiClient;
/** The server's database, opened from here to cancel a booking as the manage page does (not built yet). */
let connection: Connection;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  smtp = await startSmtpServer();
  server = await startServer({
    SMTP_URL: smtp.url,
    COMPANY_NAME: "Ojai Booking Co",
    CONTACT_EMAIL: "hello@ojai.example",
    CONTACT_NOTIFY_TO: "owner@ojai.example",
    OUTBOUND_ALLOW_PRIVATE: "true",
    JOB_DELAY_SCALE: "0.01",
  });
  admin = new ApiClient(server.url);
  await admin.signIn();
  const hook = await admin.post("/api/admin/webhooks", {
    url: receiver.url,
    events: ["booking.created", "booking.cancelled"],
    password: TEST_ADMIN.password,
  });
  expect(hook.status, hook.text).toBe(201);
  expect((await admin.put("/api/admin/booking", HOURS)).status).toBe(200);

  // This process computes the server's link key as the server does: from the
  // key file beside its SQLite database, or from TOTP_ENCRYPTION_KEY.
  process.env.DATABASE_URL = server.databaseUrl;
  if (TEST_BACKEND === "postgres") process.env.TOTP_ENCRYPTION_KEY = TEST_TOTP_KEY;
  connection = connect(resolveDatabase(server.databaseUrl, ROOT));
  initMail({ url: smtp.url });
  initBooking(connection);
});
afterAll(async () => {
  await connection?.db.destroy();
  await server?.stop();
  await smtp?.stop();
  await receiver?.close();
});

/** Today in the owner's zone, plus `days`. */
function dateIn(days: number): string {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: ZONE }).format(new Date());
  return new Date(Date.parse(`${today}T12:00:00Z`) + days * DAY).toISOString().slice(0, 10);
}
const dateOf = (slot: Slot) => new Intl.DateTimeFormat("en-CA", { timeZone: ZONE }).format(new Date(slot.start));

async function slotsBetween(from: string, to: string): Promise<{ enabled: boolean; timeZone: string; slots: Slot[] }> {
  const answer = await admin.get(`/api/booking/slots?from=${from}&to=${to}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.json;
}

/** Free slots handed out one test at a time, never twice, from the week after next on (the first week is the races'). */
const pool: Slot[] = [];
async function freeSlot(): Promise<Slot> {
  if (pool.length === 0) pool.push(...(await slotsBetween(dateIn(8), dateIn(25))).slots);
  return pool.shift()!;
}

let visitors = 0;
/** A new visitor: an address of their own (the throttle counts per address) and an e-mail of their own. */
function visitor(extra: Record<string, unknown> = {}) {
  visitors += 1;
  const address = `198.51.${Math.floor(visitors / 250)}.${(visitors % 250) + 1}`;
  return {
    headers: { "X-Forwarded-For": address },
    body: { name: `Visitor ${visitors}`, email: `visitor.${visitors}@example.com`, ...extra },
  };
}

async function book(start: string, extra: Record<string, unknown> = {}) {
  const who = visitor(extra);
  const answer = await new ApiClient(server.url).post("/api/booking", { start, ...who.body }, who.headers);
  return { ...answer, name: who.body.name, email: who.body.email };
}

const mailsTo = (address: string) => smtp.mails.filter((mail) => mail.to.includes(address));
const ownerCalendars = () => mailsTo("owner@ojai.example").map((mail) => calendarOf(mail.raw));
/** Mails and webhooks go through the queue: waited for, within a deadline. */
const SOON = { timeout: 10_000, interval: 50 };
const MANAGE_LINK = /\/book\/manage\/([\da-f-]{36}\.[\da-f]{32})\b/;

describe(`availability (${TEST_BACKEND})`, () => {
  it("round-trips through PUT and GET; bufferMinutes and daysOff are kept when left out", async () => {
    const saved = await admin.put("/api/admin/booking", {
      ...HOURS,
      bufferMinutes: 20,
      daysOff: ["2030-01-02", "2030-01-01"],
      weekly: [
        { day: 2, start: "13:00", end: "17:00" },
        { day: 1, start: "09:00", end: "12:00" },
      ],
    });
    expect(saved.status, saved.text).toBe(200);
    const expected = {
      ...HOURS,
      bufferMinutes: 20,
      daysOff: ["2030-01-01", "2030-01-02"],
      weekly: [
        { day: 1, start: "09:00", end: "12:00" },
        { day: 2, start: "13:00", end: "17:00" },
      ],
    };
    expect(saved.json).toEqual(expected);
    expect((await admin.get("/api/admin/booking")).json).toEqual(expected);

    const { bufferMinutes: _buffer, daysOff: _days, ...rest } = HOURS;
    const kept = await admin.put("/api/admin/booking", { ...rest, slotMinutes: 45 });
    expect(kept.json).toEqual({ ...HOURS, slotMinutes: 45, bufferMinutes: 20, daysOff: expected.daysOff });
    expect((await admin.put("/api/admin/booking", HOURS)).json).toEqual(HOURS);
  });

  it.each([
    [
      "overlapping ranges",
      {
        weekly: [
          { day: 1, start: "09:00", end: "12:00" },
          { day: 1, start: "11:00", end: "13:00" },
        ],
      },
      "weekly[1]",
    ],
    ["an end before its start", { weekly: [{ day: 3, start: "12:00", end: "09:00" }] }, "weekly[0].end"],
    ["a day that is not 1 to 7", { weekly: [{ day: 0, start: "09:00", end: "10:00" }] }, "weekly[0].day"],
    ["a time that is not HH:MM", { weekly: [{ day: 1, start: "9am", end: "10:00" }] }, "weekly[0].start"],
    ["an unknown time zone", { timeZone: "Mars/Olympus_Mons" }, "timeZone"],
    ["a call too short", { slotMinutes: 5 }, "slotMinutes"],
    ["a call too long", { slotMinutes: 241 }, "slotMinutes"],
    ["a buffer too long", { bufferMinutes: 121 }, "bufferMinutes"],
    ["negative notice", { minNoticeHours: -1 }, "minNoticeHours"],
    ["a horizon past a year", { horizonDays: 366 }, "horizonDays"],
    ["a fractional horizon", { horizonDays: 1.5 }, "horizonDays"],
    ["a day off that is no date", { daysOff: ["2026-02-30"] }, "daysOff[0]"],
    ["enabled as text", { enabled: "true" }, "enabled"],
  ])("refuses %s with 400 naming the field, changing nothing", async (_what, change, field) => {
    const answer = await admin.put("/api/admin/booking", { ...HOURS, ...change });
    expect(answer.status).toBe(400);
    expect(answer.json.field).toBe(field);
    expect(answer.json.issues).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    expect(answer.json.error).toEqual(expect.any(String));
    expect((await admin.get("/api/admin/booking")).json).toEqual(HOURS);
  });

  it("is the owner's: 401 without a session", async () => {
    const stranger = new ApiClient(server.url);
    expect((await stranger.get("/api/admin/booking")).status).toBe(401);
    expect((await stranger.put("/api/admin/booking", { ...HOURS, enabled: false })).status).toBe(401);
    expect((await admin.get("/api/admin/booking")).json).toEqual(HOURS);
  });
});

describe(`free slots (${TEST_BACKEND})`, () => {
  it("answers the owner's zone and 30-minute slots, sorted, in UTC, past the notice, never cached", async () => {
    const answer = await admin.get(`/api/booking/slots?from=${dateIn(0)}&to=${dateIn(6)}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const { timeZone, enabled, slots } = answer.json as { timeZone: string; enabled: boolean; slots: Slot[] };
    expect([timeZone, enabled]).toEqual([ZONE, true]);
    // 08:00-18:00 every day, a call and its buffer every 45 minutes: 13 a day, a week but today's.
    expect(slots.length).toBeGreaterThanOrEqual(6 * 13);
    const now = Date.now();
    slots.forEach((slot, i) => {
      expect(new Date(slot.start).toISOString()).toBe(slot.start);
      expect(Date.parse(slot.end) - Date.parse(slot.start)).toBe(30 * 60_000);
      expect(Date.parse(slot.start)).toBeGreaterThanOrEqual(now - 60_000 + 2 * HOUR);
      if (i > 0) expect(Date.parse(slot.start)).toBeGreaterThanOrEqual(Date.parse(slots[i - 1]!.end) + 15 * 60_000);
    });
  });

  it("checks from and to: real dates, in order, at most 62 days", async () => {
    for (const query of [
      `from=2026-02-30&to=${dateIn(3)}`,
      `from=${dateIn(0)}&to=tomorrow`,
      `from=${dateIn(0)}&to=${dateIn(62)}`,
      `from=${dateIn(5)}&to=${dateIn(4)}`,
      "from=2026-1-5",
    ]) {
      const answer = await admin.get(`/api/booking/slots?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.json.error, query).toEqual(expect.any(String));
    }
    expect((await admin.get(`/api/booking/slots?from=${dateIn(0)}&to=${dateIn(61)}`)).status).toBe(200);
    expect((await admin.get("/api/booking/slots")).status).toBe(200);
  });

  it("while booking is off, answers none and books none", async () => {
    const slot = await freeSlot();
    expect((await admin.put("/api/admin/booking", { ...HOURS, enabled: false })).status).toBe(200);
    try {
      expect(await slotsBetween(dateIn(0), dateIn(30))).toEqual({ timeZone: ZONE, enabled: false, slots: [] });
      const refused = await book(slot.start);
      expect([refused.status, refused.json.field]).toEqual([400, "start"]);
    } finally {
      expect((await admin.put("/api/admin/booking", HOURS)).status).toBe(200);
    }
    expect((await slotsBetween(dateOf(slot), dateOf(slot))).slots).toContainEqual(slot);
  });
});

describe(`the links to /book (${TEST_BACKEND})`, () => {
  it("are on the About page and at an article's end while booking is on, and gone at once while it is off", async () => {
    const created = await admin.post("/api/admin/posts", {
      title: "A post with a call to book",
      slug: "a-post-with-a-call-to-book",
      excerpt: "An excerpt",
      content: "Body text.",
      published: true,
      publishDate: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(created.status, created.text).toBe(201);
    const pages = ["/about", "/blog/a-post-with-a-call-to-book"];
    /** Each page's HTML, twice: the second from the page cache. */
    const linked = async () => {
      const found: boolean[] = [];
      for (const path of pages) {
        for (let i = 0; i < 2; i++) {
          const page = await fetch(server.url + path);
          expect(page.status, path).toBe(200);
          const html = await page.text();
          // The body's flag is what the contact modal reads.
          expect(html.includes('href="/book"'), path).toBe(html.includes('<body data-booking="open"'));
          found.push(html.includes('href="/book"'));
        }
      }
      return found;
    };
    expect(await linked()).toEqual([true, true, true, true]);
    expect((await admin.put("/api/admin/booking", { ...HOURS, enabled: false })).status).toBe(200);
    try {
      expect(await linked()).toEqual([false, false, false, false]);
    } finally {
      expect((await admin.put("/api/admin/booking", HOURS)).status).toBe(200);
    }
    expect(await linked()).toEqual([true, true, true, true]);
  });
});

describe(`booking a call (${TEST_BACKEND})`, () => {
  it("answers 201 with the slot; the slot is gone; the lead is in the inbox; an invitation reaches both; a webhook hears", async () => {
    const slot = await freeSlot();
    const booked = await book(slot.start, {
      phone: "805 555 0100",
      message: "  About moving our files.  ",
      timeZone: "Asia/Kolkata",
    });
    expect(booked.status, booked.text).toBe(201);
    expect(booked.headers.get("cache-control")).toBe("no-store");
    expect(booked.json).toEqual({ id: expect.any(String), start: slot.start, end: slot.end });
    const { id } = booked.json as { id: string };
    expect((await slotsBetween(dateOf(slot), dateOf(slot))).slots).not.toContainEqual(slot);
    const again = await book(slot.start);
    expect([again.status, again.json.field]).toEqual([409, "start"]);

    const inbox = await admin.get(`/api/admin/messages?status=all&q=${encodeURIComponent(booked.name)}&limit=100`);
    expect((inbox.json as Array<{ name: string }>).filter((m) => m.name === booked.name)).toEqual([
      expect.objectContaining({
        name: booked.name,
        email: booked.email,
        phone: "805 555 0100",
        message: "About moving our files.",
        status: "new",
        call: { start: slot.start, end: slot.end, status: "booked" },
      }),
    ]);
    const listed = (await admin.get("/api/admin/bookings?limit=100")).json as Array<{ id: string }>;
    expect(listed).toContainEqual(expect.objectContaining({ id, start: slot.start, email: booked.email }));

    await expect.poll(() => mailsTo(booked.email).length, SOON).toBe(1);
    await expect
      .poll(() => ownerCalendars().filter((calendar) => calendar.uid === `booking-${id}`).length, SOON)
      .toBe(1);
    const mail = mailsTo(booked.email)[0]!;
    expect(mail.from).toBe("hello@ojai.example");
    expect(mail.raw).toMatch(/^Auto-Submitted: auto-replied\r?$/m);
    const invite = calendarOf(mail.raw);
    expect(invite).toEqual({
      partMethod: "REQUEST",
      method: "REQUEST",
      uid: `booking-${id}`,
      sequence: 0,
      start: slot.start,
      end: slot.end,
      status: "CONFIRMED",
      summary: "Call with Ojai Booking Co",
      organizer: "mailto:hello@ojai.example",
      attendees: [{ address: `mailto:${booked.email}`, partstat: "ACCEPTED", name: booked.name }],
    });
    const text = plainTextOf(mail.raw);
    expect(text).toContain(formatCallTime(slot.start, "Asia/Kolkata"));
    expect(MANAGE_LINK.exec(text)?.[1]).toMatch(new RegExp(`^${id}\\.`));

    const ownerMail = mailsTo("owner@ojai.example").find((m) => calendarOf(m.raw).uid === invite.uid)!;
    expect(ownerMail.raw).not.toMatch(/^Auto-Submitted:/im);
    expect(calendarOf(ownerMail.raw)).toMatchObject({
      method: "REQUEST",
      uid: invite.uid,
      sequence: 0,
      start: slot.start,
      end: slot.end,
    });
    expect(plainTextOf(ownerMail.raw)).toContain(formatCallTime(slot.start, ZONE));

    await expect
      .poll(() => receiver.events().filter((h) => h.type === "booking.created" && h.data.id === id), SOON)
      .toEqual([
        {
          type: "booking.created",
          timestamp: expect.any(String),
          data: expect.objectContaining({ id, start: slot.start, end: slot.end, email: booked.email }),
        },
      ]);
  });

  it("cancelled through its link's token, frees the slot; a CANCEL of the same event, SEQUENCE 1, reaches both; a webhook hears", async () => {
    const slot = await freeSlot();
    const booked = await book(slot.start);
    expect(booked.status).toBe(201);
    await expect.poll(() => mailsTo(booked.email).length, SOON).toBe(1);
    const token = MANAGE_LINK.exec(plainTextOf(mailsTo(booked.email)[0]!.raw))![1]!;

    // What the manage page's cancel does (/book/manage/{token}, not on this branch yet).
    const booking = await findBookingByToken(connection.db, token);
    expect(booking).toMatchObject({ id: booked.json.id, status: "confirmed", start: slot.start });
    await cancelBooking(connection.db, booking!);

    expect((await slotsBetween(dateOf(slot), dateOf(slot))).slots).toContainEqual(slot);
    await expect.poll(() => mailsTo(booked.email).length, SOON).toBe(2);
    const cancel = calendarOf(mailsTo(booked.email)[1]!.raw);
    expect(cancel).toMatchObject({
      partMethod: "CANCEL",
      method: "CANCEL",
      uid: `booking-${booked.json.id}`,
      sequence: 1,
      status: "CANCELLED",
      start: slot.start,
      end: slot.end,
    });
    // The owner's copies: the invitation, then the CANCEL of the same event.
    await expect
      .poll(
        () =>
          ownerCalendars()
            .filter((calendar) => calendar.uid === cancel.uid)
            .map(({ method, sequence }) => [method, sequence]),
        SOON,
      )
      .toEqual([
        ["REQUEST", 0],
        ["CANCEL", 1],
      ]);
    await expect
      .poll(
        () =>
          receiver
            .events()
            .filter((h) => h.type === "booking.cancelled")
            .map((h) => h.data.id),
        SOON,
      )
      .toEqual([booked.json.id]);
    const inbox = await admin.get(`/api/admin/messages?status=all&q=${encodeURIComponent(booked.name)}&limit=100`);
    expect((inbox.json as Array<{ name: string; call: unknown }>).find((m) => m.name === booked.name)?.call).toEqual({
      start: slot.start,
      end: slot.end,
      status: "cancelled",
    });

    // The slot is anyone's again.
    expect((await book(slot.start)).status).toBe(201);
  });

  it("cancelled by the owner (POST /api/admin/bookings/{id}/cancel): the slot is free again, once, and the audit log says so", async () => {
    const slot = await freeSlot();
    const booked = await book(slot.start);
    expect(booked.status, booked.text).toBe(201);
    const { id } = booked.json as { id: string };
    const cancelled = await admin.post(`/api/admin/bookings/${id}/cancel`);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.json).toEqual({ id, start: slot.start, end: slot.end, status: "cancelled" });
    expect((await slotsBetween(dateOf(slot), dateOf(slot))).slots).toContainEqual(slot);
    // Again: nothing changes, and nothing more is recorded.
    expect((await admin.post(`/api/admin/bookings/${id}/cancel`)).json.status).toBe("cancelled");
    expect((await admin.post(`/api/admin/bookings/${crypto.randomUUID()}/cancel`)).status).toBe(404);
    expect((await new ApiClient(server.url).post(`/api/admin/bookings/${id}/cancel`)).status).toBe(401);

    const audit = async (action: string) =>
      ((await admin.get(`/api/admin/audit?action=${action}&limit=100`)).json as Array<{ target: string }>).map(
        (entry) => entry.target,
      );
    expect((await audit("booking-cancelled")).filter((target) => target === id)).toHaveLength(1);

    // Five cancels at once (a double click, two tabs): one cancels, and one entry says so.
    const other = await book((await freeSlot()).start);
    expect(other.status, other.text).toBe(201);
    const otherId = (other.json as { id: string }).id;
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => admin.post(`/api/admin/bookings/${otherId}/cancel`)),
    );
    expect(answers.map((answer) => [answer.status, answer.json.status])).toEqual(Array(5).fill([200, "cancelled"]));
    expect((await audit("booking-cancelled")).filter((target) => target === otherId)).toHaveLength(1);
    // The hours saved in beforeAll, with booking on.
    expect(await audit("booking-changed")).toContain("on");
  });

  it("refuses a time not offered with 400: off the grid, past, too soon, on a day off, beyond the horizon", async () => {
    const slot = await freeSlot();
    const offGrid = new Date(Date.parse(slot.start) + 60_000).toISOString();
    // A Monday 08:00 in Los Angeles, long gone.
    const past = "2020-01-06T16:00:00.000Z";
    const [soonest] = (await slotsBetween(dateIn(0), dateIn(3))).slots;
    expect(Date.parse(soonest!.start)).toBeLessThan(Date.now() + 48 * HOUR);
    const refusals: Array<[string, string]> = [
      ["off the grid", offGrid],
      ["past", past],
    ];
    for (const [what, start] of refusals) {
      const answer = await book(start);
      expect([answer.status, answer.json.field], what).toEqual([400, "start"]);
    }

    try {
      await admin.put("/api/admin/booking", { ...HOURS, minNoticeHours: 48 });
      expect((await book(soonest!.start)).status).toBe(400);
      await admin.put("/api/admin/booking", { ...HOURS, daysOff: [dateOf(slot)] });
      expect((await slotsBetween(dateOf(slot), dateOf(slot))).slots).toEqual([]);
      expect((await book(slot.start)).status).toBe(400);
      await admin.put("/api/admin/booking", { ...HOURS, horizonDays: 60 });
      const [far] = (await slotsBetween(dateIn(45), dateIn(45))).slots;
      await admin.put("/api/admin/booking", HOURS);
      expect((await slotsBetween(dateIn(45), dateIn(45))).slots).toEqual([]);
      const beyond = await book(far!.start);
      expect([beyond.status, beyond.json.field]).toEqual([400, "start"]);
    } finally {
      expect((await admin.put("/api/admin/booking", HOURS)).status).toBe(200);
    }
    // The same slot, once offered again, books.
    expect((await book(slot.start)).status).toBe(201);
  });

  it.each([
    ["no start", { start: undefined }, "start"],
    ["a start that is no time", { start: "next Tuesday" }, "start"],
    ["no name", { name: "   " }, "name"],
    ["a name too long", { name: "n".repeat(201) }, "name"],
    ["no e-mail", { email: undefined }, "email"],
    ["an e-mail that is none", { email: "visitor-at-example.com" }, "email"],
    ["a phone too long", { phone: "5".repeat(51) }, "phone"],
    ["a note too long", { message: "m".repeat(2001) }, "message"],
  ])("refuses %s with 400 naming the field", async (_what, change, field) => {
    const slot = await freeSlot();
    const answer = await book(slot.start, change);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.json).toEqual({ error: expect.any(String), field });
    expect((await slotsBetween(dateOf(slot), dateOf(slot))).slots).toContainEqual(slot);
  });

  it("refuses a body that is no object, is no JSON, holds NUL (PostgreSQL cannot store it) or is huge: 400 or 413, not 500", async () => {
    const slot = await freeSlot();
    const client = new ApiClient(server.url);
    const post = (body: unknown) => client.post("/api/booking", body, visitor().headers);
    expect((await post([slot.start])).json).toEqual({ error: expect.any(String), field: "body" });
    expect((await post("{not json")).status).toBe(400);
    for (const field of ["name", "email", "phone", "message", "timeZone", "start"]) {
      const answer = await post({ ...visitor().body, start: slot.start, [field]: `a\u0000b` });
      expect(answer.status, `${field}: ${answer.text}`).toBe(400);
    }
    const huge = await post({ ...visitor().body, start: slot.start, message: "m".repeat(70 * 1024) });
    expect(huge.status).toBe(413);
    expect((await slotsBetween(dateOf(slot), dateOf(slot))).slots).toContainEqual(slot);
    expect(server.stderr()).toBe("");
  });

  it("25 visitors posting one slot at once: exactly one 201, 24 409", async () => {
    const [slot] = (await slotsBetween(dateIn(2), dateIn(2))).slots;
    const answers = await postAllAtOnce(
      Array.from({ length: 25 }, () => {
        const who = visitor();
        return {
          url: server.url,
          path: "/api/booking",
          body: { start: slot!.start, ...who.body },
          headers: who.headers,
        };
      }),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, ...Array<number>(24).fill(409)]);
    expect((await slotsBetween(dateIn(2), dateIn(2))).slots).not.toContainEqual(slot);
    const bookings = (await admin.get("/api/admin/bookings?limit=100")).json as Slot[];
    expect(bookings.filter((b) => b.start === slot!.start)).toHaveLength(1);
  });

  it("25 posts of one slot from one address and one e-mail: exactly one 201, 24 409 (losers are neither throttled nor counted)", async () => {
    const [slot] = (await slotsBetween(dateIn(3), dateIn(3))).slots;
    const who = visitor();
    const answers = await postAllAtOnce(
      Array.from({ length: 25 }, () => ({
        url: server.url,
        path: "/api/booking",
        body: { start: slot!.start, ...who.body },
        headers: who.headers,
      })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, ...Array<number>(24).fill(409)]);
    for (const lost of answers.filter((answer) => answer.status === 409))
      expect(JSON.parse(lost.text)).toMatchObject({ field: "start" });
    // The address was refunded for its 24 losses, and the e-mail has one call, not 25: two more go.
    for (const next of (await slotsBetween(dateIn(4), dateIn(4))).slots.slice(0, 2)) {
      const answer = await new ApiClient(server.url).post(
        "/api/booking",
        { start: next.start, ...who.body },
        who.headers,
      );
      expect(answer.status, answer.text).toBe(201);
    }
  });

  it("lets one e-mail (however spelled) hold 3 open calls: the 4th is 409 naming email", async () => {
    const spellings = ["Dana@Example.com", "dana+calls@example.com", "DANA@example.COM", "dana@example.com"];
    const answers = [];
    for (const email of spellings) answers.push(await book((await freeSlot()).start, { email }));
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 409]);
    expect(answers[3]!.json).toEqual({ error: expect.stringContaining("3 calls"), field: "email" });
  });

  it("counts a script's refusals that are not a lost race: a full mailbox asked again and again is throttled", async () => {
    const address = { "X-Forwarded-For": "203.0.113.201" };
    const mailbox = { name: "Full", email: "full.mailbox@example.com" };
    const slots = await Promise.all(Array.from({ length: 4 }, () => freeSlot()));
    for (const slot of slots.slice(0, 3)) {
      const answer = await new ApiClient(server.url).post("/api/booking", { start: slot.start, ...mailbox }, address);
      expect(answer.status, answer.text).toBe(201);
    }
    const statuses = [];
    for (let i = 0; i < 28; i++) {
      const answer = await new ApiClient(server.url).post(
        "/api/booking",
        { start: slots[3]!.start, ...mailbox },
        address,
      );
      statuses.push(answer.status);
    }
    // 3 bookings and 27 refusals use the address's 30 attempts; the 28th refusal is the throttle's.
    expect(statuses).toEqual([...Array<number>(27).fill(409), 429]);
  });

  it("deleting the lead deletes its booking: the visitor's details go and the time is free again", async () => {
    const slot = await freeSlot();
    const booked = await book(slot.start, { name: "Erin Erase", email: "erin.erase@example.com" });
    expect(booked.status, booked.text).toBe(201);
    const listed = await admin.get("/api/admin/bookings");
    expect((listed.json as Array<{ id: string }>).map((b) => b.id)).toContain((booked.json as { id: string }).id);
    const deleted = await admin.delete("/api/admin/messages?email=erin.erase@example.com");
    expect(deleted.status, deleted.text).toBe(200);
    const after = await admin.get("/api/admin/bookings?limit=100");
    expect(after.text).not.toContain("erin.erase@example.com");
    expect((await slotsBetween(dateOf(slot), dateOf(slot))).slots).toContainEqual(slot);
  });

  it("throttles one address after 30 bookings an hour: 429 with Retry-After", async () => {
    const address = { "X-Forwarded-For": "203.0.113.200" };
    const slots = await Promise.all(Array.from({ length: 31 }, () => freeSlot()));
    const answers = await postAllAtOnce(
      slots.slice(0, 30).map((slot, i) => ({
        url: server.url,
        path: "/api/booking",
        body: { start: slot.start, name: `Busy ${i}`, email: `busy.${i}@example.com` },
        headers: address,
      })),
      50,
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array<number>(30).fill(201));
    const refused = await new ApiClient(server.url).post(
      "/api/booking",
      { start: slots[30]!.start, name: "Busy 30", email: "busy.30@example.com" },
      address,
    );
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await slotsBetween(dateOf(slots[30]!), dateOf(slots[30]!))).slots).toContainEqual(slots[30]);
  });
});
