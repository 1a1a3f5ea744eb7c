import { createHash, randomBytes } from "node:crypto";
import { createCookie, redirect } from "react-router";
import { summariseUserAgent } from "~/lib/user-agent";
import type { Db } from "../db/db.server";
import { getDb } from "../db/index.server";
import { clientNetwork } from "../platform/client-network.server";
import { getConfig } from "../platform/config.server";

/**
 * Administrators' sessions (ADR 021): the cookie, its row in \`sessions\`, who
 * the request's administrator is, and the Account screen's list of sessions.
 */

export interface AdminUser {
  id: string;
  email: string;
}

/** A session ends 14 days after sign-in (absolute) ... */
const SESSION_DAYS = 14;
/** ... or after 24 hours without a request, whichever comes first (ADR 021). */
const SESSION_IDLE_MS = 24 * 60 * 60 * 1000;
/** A session's last-seen time is written at most this often, not on every request. */
const LAST_SEEN_REFRESH_MS = 5 * 60 * 1000;

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

/**
 * The session cookie's name. On https it carries the `__Host-` prefix, which
 * browsers accept only with Secure, Path=/ and no Domain: no subdomain or
 * plain-http page can set or shadow it. The page cache (server/app.ts) keys
 * its bypass on this same name.
 */
function sessionCookieName(secure: boolean = getConfig().secureCookies): string {
  return secure ? "__Host-session" : "session";
}

/**
 * Whether a Cookie header carries a session cookie (either name), without
 * reading it: a plain check for what the analytics leave out (ADR 056), a
 * signed-in administrator's own visits. A stale cookie counts too: an
 * administrator's browser either way.
 */
export function hasSessionCookie(header: string | undefined): boolean {
  if (!header || !header.includes("session=")) return false;
  for (const part of header.split(";")) {
    const pair = part.trimStart();
    if (pair.startsWith("session=") || pair.startsWith("__Host-session=")) return true;
  }
  return false;
}

let cookie: ReturnType<typeof createCookie> | undefined;
function sessionCookie() {
  const secure = getConfig().secureCookies;
  cookie ??= createCookie(sessionCookieName(secure), {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    maxAge: SESSION_DAYS * 24 * 60 * 60,
  });
  return cookie;
}

/** Where a sign-in came from, kept with its session for the Account screen's list. */
interface SessionClient {
  userAgent?: string | null;
  /** The client's address: only its network is kept (platform/client-network.server.ts). */
  address?: string | null;
}

const USER_AGENT_MAX = 300;

export async function createSession(
  db: Db,
  userId: string,
  client: SessionClient = {},
): Promise<{ token: string; setCookie: string }> {
  const token = randomBytes(32).toString("base64url");
  const now = new Date();
  const expires = new Date(now.getTime() + SESSION_DAYS * 86_400_000);
  await db
    .insertInto("sessions")
    .values({
      id: sha256(token),
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: expires.toISOString(),
      last_seen_at: now.toISOString(),
      // Bounded, and only characters every database stores (no NUL or lone surrogates).
      user_agent: storable(client.userAgent, USER_AGENT_MAX),
      // 203.0.113.0/24, not 203.0.113.9: enough to tell one's office from elsewhere, not a visitor's address.
      ip_address: clientNetwork(client.address),
    })
    .execute();
  return { token, setCookie: await sessionCookie().serialize(token, { expires }) };
}

function storable(value: string | null | undefined, max: number): string | null {
  if (!value) return null;
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const cleaned = value.replace(/[\u0000-\u001f\u007f\ud800-\udfff]/g, "").slice(0, max);
  return cleaned || null;
}

async function readToken(request: Request): Promise<string | undefined> {
  const value: unknown = await sessionCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

export async function getAdmin(request: Request, db: Db = getDb()): Promise<AdminUser | undefined> {
  const token = await readToken(request);
  if (!token) return undefined;
  const id = sha256(token);
  const row = await db
    .selectFrom("sessions")
    .innerJoin("admin_users", "admin_users.id", "sessions.user_id")
    .select([
      "admin_users.id",
      "admin_users.email",
      "sessions.created_at",
      "sessions.expires_at",
      "sessions.last_seen_at",
    ])
    .where("sessions.id", "=", id)
    .executeTakeFirst();
  if (!row) return undefined;
  const now = Date.now();
  // A row written before last_seen_at existed counts as seen when it was created.
  const lastSeen = Date.parse(row.last_seen_at ?? row.created_at);
  if (row.expires_at <= new Date(now).toISOString() || !(lastSeen > now - SESSION_IDLE_MS)) {
    await db.deleteFrom("sessions").where("id", "=", id).execute();
    return undefined;
  }
  if (lastSeen <= now - LAST_SEEN_REFRESH_MS) {
    await db
      .updateTable("sessions")
      .set({ last_seen_at: new Date(now).toISOString() })
      .where("id", "=", id)
      .execute();
  }
  return { id: row.id, email: row.email };
}

/** For /api/admin/*: the signed-in administrator, or a 401 JSON answer. */
export async function requireAdminApi(request: Request, db?: Db): Promise<AdminUser> {
  const admin = await getAdmin(request, db);
  if (!admin) throw Response.json({ error: "Authentication required" }, { status: 401 });
  return admin;
}

/**
 * For admin pages: the signed-in administrator, or a redirect to sign-in.
 * The admin layout's middleware calls it once per request (middleware.server.ts),
 * the page previews when opened without a share link.
 */
export async function requireAdminPage(request: Request, db?: Db): Promise<AdminUser> {
  const admin = await getAdmin(request, db);
  if (!admin) throw redirect("/admin/login");
  return admin;
}

/** Revokes the request's session (if any); returns the Set-Cookie that clears it. */
export async function signOut(request: Request, db: Db = getDb()): Promise<string> {
  const token = await readToken(request);
  if (token) await db.deleteFrom("sessions").where("id", "=", sha256(token)).execute();
  return sessionCookie().serialize("", { maxAge: 0, expires: new Date(0) });
}

/** Removes sessions past their absolute end or idle for longer than SESSION_IDLE_MS. */
export async function deleteExpiredSessions(db: Db): Promise<void> {
  const now = Date.now();
  const idleSince = new Date(now - SESSION_IDLE_MS).toISOString();
  await db
    .deleteFrom("sessions")
    .where((eb) =>
      eb.or([
        eb("expires_at", "<=", new Date(now).toISOString()),
        eb("last_seen_at", "<=", idleSince),
        eb.and([eb("last_seen_at", "is", null), eb("created_at", "<=", idleSince)]),
      ]),
    )
    .execute();
}
/** The request's session row id (the SHA-256 of its cookie's token), if it has a cookie. */
export async function currentSessionId(request: Request): Promise<string | undefined> {
  const token = await readToken(request);
  return token ? sha256(token) : undefined;
}

interface SessionSummary {
  /** Not the row's id (the hash that finds a cookie's session): a hash of it, to name it in a URL. */
  id: string;
  createdAt: string;
  lastSeenAt: string;
  browser: string;
  /** The network signed in from (203.0.113.0/24), as stored. */
  address: string | null;
  current: boolean;
}

const publicSessionId = (rowId: string) => sha256(`session-list:${rowId}`).slice(0, 32);

/** This administrator's live sessions, the one in use first, then the most recently seen. */
export async function listOwnSessions(db: Db, user: AdminUser, request: Request): Promise<SessionSummary[]> {
  const current = await currentSessionId(request);
  const now = Date.now();
  const rows = await db
    .selectFrom("sessions")
    .select(["id", "created_at", "expires_at", "last_seen_at", "user_agent", "ip_address"])
    .where("user_id", "=", user.id)
    .execute();
  return rows
    .filter((row) => {
      const lastSeen = Date.parse(row.last_seen_at ?? row.created_at);
      return row.expires_at > new Date(now).toISOString() && lastSeen > now - SESSION_IDLE_MS;
    })
    .map((row) => ({
      id: publicSessionId(row.id),
      createdAt: row.created_at,
      lastSeenAt: row.last_seen_at ?? row.created_at,
      browser: summariseUserAgent(row.user_agent),
      address: row.ip_address,
      current: row.id === current,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt.localeCompare(a.lastSeenAt));
}

/** Signs out one of this administrator's sessions by its listed id; false when there is none. */
export async function revokeOwnSession(db: Db, user: AdminUser, listedId: string): Promise<boolean> {
  const rows = await db.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute();
  const row = rows.find((candidate) => publicSessionId(candidate.id) === listedId);
  if (!row) return false;
  const deleted = await db
    .deleteFrom("sessions")
    .where("id", "=", row.id)
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) === 1;
}

/** "Sign out everywhere else": every session of this administrator but the request's own. */
export async function revokeOtherSessions(db: Db, user: AdminUser, request: Request): Promise<number> {
  const current = (await currentSessionId(request)) ?? "";
  const deleted = await db
    .deleteFrom("sessions")
    .where("user_id", "=", user.id)
    .where("id", "<>", current)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
