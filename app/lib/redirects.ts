/**
 * The rules of a redirect (ADR 054), shared by the server, which checks what
 * the owner saves and imports, and the Redirects screen, which shows the
 * limits: `from` is a path on this site, `to` a path on this site or an
 * https address, never another scheme (javascript:, data:, ...).
 */

/** Lengths in characters, checked before anything else looks at the text. */
export const REDIRECT_LIMITS = { from: 500, to: 1000 } as const;
/** How many redirects the site keeps at most (manual and automatic together). */
export const MAX_REDIRECTS = 10_000;
/** A CSV import: at most this many bytes and lines (a header line included). */
export const CSV_IMPORT_LIMITS = { bytes: 1_000_000, lines: 5_000 } as const;
/** The answers a redirect may give: permanent (the default) or temporary. */
export const REDIRECT_STATUSES = [301, 302] as const;
export type RedirectStatus = (typeof REDIRECT_STATUSES)[number];

/**
 * First path segments a redirect may not start from: the admin, the APIs,
 * the build's assets and the health check must keep answering as themselves
 * whatever is saved (a redirect from /admin would lock the owner out).
 */
const RESERVED_FIRST_SEGMENTS = new Set(["admin", "api", "assets", "healthz", "__manifest"]);

export type Checked = { ok: true; value: string } | { ok: false; message: string };

/** One redirect as the API and the screen show it. */
export interface Redirect {
  id: string;
  from: string;
  to: string;
  status: RedirectStatus;
  /** Made by the site when a post or category changed its address, not by hand. */
  automatic: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Any character a URL must not carry as it is: controls, spaces, NUL, lone surrogates. */
function hasUnsafeCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 0x20 || code === 0x7f || (code >= 0x80 && code <= 0x9f)) return true;
  }
  return !text.isWellFormed();
}

const BASE = "http://redirect.invalid";

/** Without a trailing slash (but "/" itself): /old/ and /old are one address. */
export function withoutTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}

/**
 * A redirect's `from`: a path on this site, without query or fragment, as the
 * URL parser spells it (percent-encoded, dot segments resolved), without a
 * trailing slash.
 */
export function checkFromPath(input: string): Checked {
  const text = input.trim();
  if (text.length === 0) return { ok: false, message: "from is required: a path on this site, such as /old-page" };
  if (text.length > REDIRECT_LIMITS.from) {
    return { ok: false, message: `from is too long (${REDIRECT_LIMITS.from} characters at most)` };
  }
  if (!text.startsWith("/") || text.startsWith("//") || text.startsWith("/\\") || hasUnsafeCharacter(text)) {
    return { ok: false, message: "from must be a path on this site, starting with / (such as /old-page)" };
  }
  if (text.includes("?") || text.includes("#")) {
    return { ok: false, message: "from must be a path without ? or #" };
  }
  const path = withoutTrailingSlash(new URL(text, BASE).pathname);
  // Dot segments can leave two slashes in front (/.//host): still not a path of its own.
  if (path.startsWith("//")) {
    return { ok: false, message: "from must be a path on this site, starting with / (such as /old-page)" };
  }
  if (path.length > REDIRECT_LIMITS.from) {
    return { ok: false, message: `from is too long (${REDIRECT_LIMITS.from} characters at most)` };
  }
  if (path === "/") return { ok: false, message: "from cannot be the home page /" };
  const first = path.slice(1).split("/", 1)[0]!.toLowerCase();
  if (RESERVED_FIRST_SEGMENTS.has(first)) {
    return { ok: false, message: `from cannot start with /${first}: the site needs that address itself` };
  }
  return { ok: true, value: path };
}

/**
 * A redirect's `to`: a path on this site (with its query, if any) or an
 * https:// address without a user name or password. Anything else
 * (javascript:, data:, http:, //host, ...) is refused.
 */
export function checkTarget(input: string): Checked {
  const text = input.trim();
  const refused = {
    ok: false as const,
    message: "to must be a path on this site (starting with /) or an https:// address",
  };
  if (text.length === 0) return { ok: false, message: "to is required: a path on this site or an https:// address" };
  if (text.length > REDIRECT_LIMITS.to) {
    return { ok: false, message: `to is too long (${REDIRECT_LIMITS.to} characters at most)` };
  }
  if (hasUnsafeCharacter(text)) return refused;
  if (text.startsWith("/")) {
    if (text.startsWith("//") || text.startsWith("/\\")) return refused;
    const url = new URL(text, BASE);
    const value = url.pathname + url.search + url.hash;
    // Resolving dot segments and backslashes can make the path start with //
    // (/.//host, /..//host, /./\host): as a Location that is another host.
    if (value.startsWith("//")) return refused;
    return value.length > REDIRECT_LIMITS.to ? refused : { ok: true, value };
  }
  if (!/^https:\/\//i.test(text)) return refused;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refused;
  }
  if (url.protocol !== "https:" || url.hostname === "" || url.username !== "" || url.password !== "") return refused;
  return url.href.length > REDIRECT_LIMITS.to ? refused : { ok: true, value: url.href };
}

/** The path part of a `to` on this site (no query, no trailing slash); undefined for an https address. */
export function localPathOf(to: string): string | undefined {
  if (!to.startsWith("/")) return undefined;
  const end = to.search(/[?#]/);
  return withoutTrailingSlash(end === -1 ? to : to.slice(0, end));
}

export function isRedirectStatus(value: unknown): value is RedirectStatus {
  return value === 301 || value === 302;
}
