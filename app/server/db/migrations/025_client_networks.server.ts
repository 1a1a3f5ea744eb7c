import { type Kysely, type SelectQueryBuilder } from "kysely";

/**
 * Nothing that identifies a visitor is kept in the clear: the client
 * addresses stored before this migration become their networks, and a failed
 * sign-in keeps the e-mail it tried only when that is an administrator's.
 *
 * - `sessions.ip_address` and `audit_log.client_address`: an IPv4 address
 *   becomes its /24 (203.0.113.0/24), an IPv6 address its /48
 *   (2001:db8:1::/48), an IPv4-mapped IPv6 address is taken as IPv4, and what
 *   is no address ("unknown") becomes null. A network already in that form
 *   stays as it is.
 * - `audit_log.actor_email` of a failed sign-in (`sign-in-failed`,
 *   `sign-in-code-failed`, no actor): the administrator's e-mail when the
 *   tried one is an administrator's (trimmed, ignoring case), else null.
 *
 * The rule is a frozen copy of app/server/platform/client-network.server.ts
 * as it was when this shipped, without ipaddr.js (ADR 050: a migration
 * imports only Kysely). Rows are read in batches in key order and written
 * per batch, so a large audit log takes bounded memory. There is no way back:
 * `down` leaves the networks.
 */

const BATCH = 500;
const IPV4_BITS = 24;
const IPV6_BITS = 48;
const FAILED_SIGN_INS = ["sign-in-failed", "sign-in-code-failed"];

export async function up(db: Kysely<any>): Promise<void> {
  await rewriteInBatches(db, "sessions", "ip_address", (row) => ({ ip_address: networkOf(row.ip_address) }));
  await rewriteInBatches(db, "audit_log", "client_address", (row) => ({
    client_address: networkOf(row.client_address),
  }));
  const admins = await db.selectFrom("admin_users").select("email").execute();
  const adminEmails = new Map(admins.map((row) => [String(row.email).trim().toLowerCase(), String(row.email)]));
  await rewriteInBatches(
    db,
    "audit_log",
    "actor_email",
    (row) => ({ actor_email: adminEmails.get(String(row.actor_email).trim().toLowerCase()) ?? null }),
    (query) => query.where("action", "in", FAILED_SIGN_INS).where("actor_id", "is", null),
  );
}

export async function down(): Promise<void> {
  // The full addresses and the strangers' e-mails are gone; nothing to undo.
}

type Row = Record<string, string | null>;
type Query = SelectQueryBuilder<any, string, Row>;

/**
 * Walks `table` by its `id` in batches of BATCH rows whose `column` is set,
 * and writes `change(row)` where it differs, one update per distinct new value
 * in a batch (a batch of one office's entries is one statement).
 */
async function rewriteInBatches(
  db: Kysely<any>,
  table: string,
  column: string,
  change: (row: Row) => Row,
  narrow: (query: Query) => Query = (query) => query,
): Promise<void> {
  let after: string | undefined;
  for (;;) {
    let query: Query = narrow(db.selectFrom(table).select(["id", column]).where(column, "is not", null));
    if (after !== undefined) query = query.where("id", ">", after);
    const rows = await query.orderBy("id").limit(BATCH).execute();
    if (rows.length === 0) return;
    const updates = new Map<string | null, string[]>();
    for (const row of rows) {
      const value = change(row)[column] ?? null;
      if (value === row[column]) continue;
      updates.set(value, [...(updates.get(value) ?? []), row.id!]);
    }
    for (const [value, ids] of updates) {
      await db
        .updateTable(table)
        .set({ [column]: value })
        .where("id", "in", ids)
        .execute();
    }
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.id!;
  }
}

/** The network of a stored client address, or null (see the header). */
function networkOf(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (text === "" || text.length > 100) return null;
  const slash = text.lastIndexOf("/");
  const address = slash === -1 ? text : text.slice(0, slash);
  let prefix: number | undefined;
  if (slash !== -1) {
    const digits = text.slice(slash + 1);
    if (!/^\d{1,3}$/.test(digits)) return null;
    prefix = Number(digits);
  }
  const ipv4 = ipv4Octets(address);
  if (ipv4) return ipv4Network(ipv4, prefix);
  const ipv6 = ipv6Groups(address);
  if (!ipv6) return null;
  if (ipv6.mapped) {
    if (prefix !== undefined) return null;
    const [high, low] = [ipv6.groups[6]!, ipv6.groups[7]!];
    return ipv4Network([high >> 8, high & 0xff, low >> 8, low & 0xff], undefined);
  }
  return ipv6Network(ipv6.groups, prefix);
}

/** Four decimal parts 0-255 without leading zeros, or null. */
function ipv4Octets(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((part) => /^(?:0|[1-9]\d{0,2})$/.test(part))) return null;
  const octets = parts.map(Number);
  return octets.every((octet) => octet <= 255) ? octets : null;
}

/**
 * Eight 16-bit groups of an IPv6 address (groups of 1-4 hex digits, at most
 * one "::" standing for at least one group, an optional IPv4 tail, an
 * optional zone), or null. `mapped`: ::ffff:0:0/96, or "::" and an IPv4 tail
 * (the deprecated IPv4-compatible form, read as mapped).
 */
function ipv6Groups(input: string): { groups: number[]; mapped: boolean } | null {
  let text = input;
  const percent = text.indexOf("%");
  if (percent !== -1) {
    if (!/^[0-9a-z]+$/i.test(text.slice(percent + 1))) return null;
    text = text.slice(0, percent);
  }
  const lastColon = text.lastIndexOf(":");
  if (lastColon === -1) return null;
  let tail: number[] = [];
  if (text.includes(".")) {
    const ipv4 = ipv4Octets(text.slice(lastColon + 1));
    if (!ipv4) return null;
    tail = [(ipv4[0]! << 8) | ipv4[1]!, (ipv4[2]! << 8) | ipv4[3]!];
    text = text.endsWith("::", lastColon + 1) ? text.slice(0, lastColon + 1) : text.slice(0, lastColon);
  }
  const compatible = text === "::" && tail.length === 2;
  const wanted = 8 - tail.length;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const split = (half: string) => (half === "" ? [] : half.split(":"));
  const left = split(halves[0]!);
  const right = halves.length === 2 ? split(halves[1]!) : [];
  if (![...left, ...right].every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return null;
  const missing = wanted - left.length - right.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [
    ...left.map((group) => parseInt(group, 16)),
    ...Array<number>(halves.length === 2 ? missing : 0).fill(0),
    ...right.map((group) => parseInt(group, 16)),
    ...tail,
  ];
  const mapped = compatible || (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff);
  return { groups, mapped };
}

function ipv4Network(octets: number[], prefix: number | undefined): string | null {
  if (prefix !== undefined && prefix > 32) return null;
  const bits = Math.min(prefix ?? 32, IPV4_BITS);
  const masked = octets.map((octet, i) => octet & mask(bits - i * 8, 8));
  return `${masked.join(".")}/${bits}`;
}

/** Written as RFC 5952 does: with at most 48 bits kept, the zeros after them are the longest run, so "::". */
function ipv6Network(groups: number[], prefix: number | undefined): string | null {
  if (prefix !== undefined && prefix > 128) return null;
  const bits = Math.min(prefix ?? 128, IPV6_BITS);
  const kept = groups.slice(0, 3).map((group, i) => group & mask(bits - i * 16, 16));
  while (kept.length > 0 && kept[kept.length - 1] === 0) kept.pop();
  return `${kept.map((group) => group.toString(16)).join(":")}::/${bits}`;
}

/** The mask of a `width`-bit unit keeping its first `bits` bits. */
function mask(bits: number, width: number): number {
  const all = 2 ** width - 1;
  if (bits <= 0) return 0;
  return bits >= width ? all : (all << (width - bits)) & all;
}
