/**
 * The rules of a redirect (ADR 054), shared by the server, which checks what
 * the owner saves and imports, and the Redirects screen, which shows the
 * limits: `from` is a path on this site, `to` a path on this site or an
 * https address, never another scheme (javascript:, data:, ...).
 */

/** Lengths in characters, checked before anything else looks at the text. */
export const REDIRECT_LIMITS = { from: 500, to: 1000 } as const;
/** How many redirects the site keeps at most (manual and automatic together; imported ones apart). */
export const MAX_REDIRECTS = 10_000;
/** How many old addresses of imported posts and categories the site keeps at most (ADR 074). */
export const MAX_IMPORTED_REDIRECTS = 30_000;

/**
 * WordPress's own address of a post, `/?p=123`: the one redirect whose from
 * carries a query, made only by an import (ADR 074). The lookup reads it
 * from a request for `/` with exactly that query; `/` itself is never
 * redirected.
 */
export function isWordPressIdPath(from: string): boolean {
  return /^\/\?p=\d{1,19}$/.test(from);
}
/** A CSV import: at most this many bytes and lines (a header line included). */
export const CSV_IMPORT_LIMITS = { bytes: 1_000_000, lines: 5_000 } as const;
/** The answers a redirect may give: permanent (the default) or temporary. */
export const REDIRECT_STATUSES = [301, 302] as const;
export type RedirectStatus = (typeof REDIRECT_STATUSES)[number];

/**
 * The addresses the site answers itself, in one place: a redirect from any of
 * them, in any spelling, is refused when saved and never answered when one is
 * stored anyway (saved before this rule, copied in). The admin (and its data
 * URLs: a redirect on /admin.data answered before sign-in broke the Posts
 * screen), the APIs, the build's assets, the images, the health check, React
 * Router's route manifest, the share links, and the files at the top of the
 * site. Checked on the path as the router reads it (routedPath).
 */
export const RESERVED_PATHS = {
  /** These paths and everything under them. */
  prefixes: [
    "/admin",
    "/api",
    "/assets",
    "/images",
    "/healthz",
    "/__manifest",
    "/blog/preview",
    "/pages/preview",
    "/book/manage",
    "/newsletter/confirm",
    "/newsletter/unsubscribe",
  ],
  /** These paths exactly. */
  exact: ["/rss.xml", "/robots.txt", "/sitemap.xml", "/favicon.ico", "/favicon.svg"],
  /** Any path ending so: React Router's data requests (/admin.data, /_root.data, /blog.data). */
  suffixes: [".data"],
  /** A top-level file named so (sitemap-2.xml, favicon.png): what a sitemap index or an icon may add. */
  topLevelFiles: [
    { start: "sitemap", end: ".xml" },
    { start: "favicon", end: "" },
  ],
} as const;

/** Rounds of percent-decoding before a path counts as settled; past it the path is refused. */
const MAX_DECODES = 8;
/** A percent escape of an ASCII character: only these can spell a reserved address. */
const ASCII_ESCAPE = /%[0-7][\da-f]/gi;

/**
 * A path as a router could read it, for comparing with RESERVED_PATHS:
 * percent-escapes of ASCII decoded until nothing changes (a proxy or a
 * router may decode once more: /%2561dmin), cut at a decoded ? or #, in
 * lower case (React Router and Express match paths without regard to case),
 * backslashes read as slashes, empty and dot segments resolved, no trailing
 * slash. Undefined when it is still changing after MAX_DECODES rounds. Linear
 * in the path's length for each round; callers bound the length first.
 */
export function routedPath(path: string): string | undefined {
  let text = path;
  for (let round = 0; ; round++) {
    const decoded = text.replace(ASCII_ESCAPE, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)));
    if (decoded === text) break;
    if (round === MAX_DECODES) return undefined;
    text = decoded;
  }
  const end = text.search(/[?#]/);
  if (end !== -1) text = text.slice(0, end);
  const segments: string[] = [];
  for (const segment of text.toLowerCase().replaceAll("\\", "/").split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join("/")}`;
}

/**
 * Why a redirect may not start from `path` (a message in the words of
 * checkFromPath's), or undefined when it may. Any spelling counts
 * (routedPath): /%61dmin, /ADMIN/, //admin, /./admin, /admin.data.
 */
export function reservedPathMessage(path: string): string | undefined {
  const routed = routedPath(path);
  if (routed === undefined) return "from must not be percent-encoded again and again (such as %2561)";
  if (routed === "/") return "from cannot be the home page /";
  for (const suffix of RESERVED_PATHS.suffixes) {
    if (routed.endsWith(suffix)) return `from cannot end with ${suffix}: the site needs those addresses itself`;
  }
  for (const prefix of RESERVED_PATHS.prefixes) {
    if (routed === prefix || routed.startsWith(`${prefix}/`)) {
      return `from cannot start with ${prefix}: the site needs that address itself`;
    }
  }
  const name = routed.slice(1);
  const topLevelFile =
    !name.includes("/") &&
    RESERVED_PATHS.topLevelFiles.some(({ start, end }) => name.startsWith(start) && name.endsWith(end));
  if (topLevelFile || (RESERVED_PATHS.exact as readonly string[]).includes(routed)) {
    return `from cannot be ${routed}: the site needs that address itself`;
  }
  return undefined;
}

export type Checked = { ok: true; value: string } | { ok: false; message: string };

/** One redirect as the API and the screen show it. */
export interface Redirect {
  id: string;
  from: string;
  to: string;
  status: RedirectStatus;
  /** Made by the site when a post or category changed its address, not by hand. */
  automatic: boolean;
  /** An old address of a post or category brought by an import (ADR 074). */
  imported: boolean;
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
 * trailing slash, and none the site answers itself in any spelling
 * (reservedPathMessage).
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
  const reserved = reservedPathMessage(path);
  return reserved === undefined ? { ok: true, value: path } : { ok: false, message: reserved };
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
