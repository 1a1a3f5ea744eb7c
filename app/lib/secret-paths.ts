/**
 * Paths whose last segment is a secret: an invitation's token is a password
 * until it is used (ADR 038), a share link's opens a draft (ADR 044). Neither
 * may reach a log. React Router matches paths decoded and without regard to
 * case, so these are checked the same way: `/blog/pr%65view/{token}` opens
 * the share link too. The first administrator's setup link carries its token
 * in the query (`/admin/setup?token=`): a query naming a token is not logged
 * either (ADR 048).
 */
const SECRET_PREFIXES = ["/admin/invite/", "/blog/preview/", "/pages/preview/"] as const;

/** A request URL's path, percent-decoded where it decodes, lower case: as React Router matches it. */
export function decodedPath(url: string): string {
  const query = url.indexOf("?");
  const path = query === -1 ? url : url.slice(0, query);
  try {
    return decodeURIComponent(path).toLowerCase();
  } catch {
    return path.toLowerCase();
  }
}

/** Whether a request URL opens a share link or a page's preview (any spelling the router accepts; ADR 044, ADR 053). */
export function isPreviewPath(url: string): boolean {
  const path = decodedPath(url);
  return path.startsWith("/blog/preview/") || path.startsWith("/pages/preview/");
}

/**
 * Whether a request URL is a page whose own address holds a secret: a share
 * link, an invitation, or the setup page (its token in the query). Such a
 * page must not send its address on as a referrer (ADR 048).
 */
export function hasSecretAddress(url: string): boolean {
  const path = decodedPath(url);
  return (
    SECRET_PREFIXES.some((prefix) => path.startsWith(prefix)) ||
    path === SETUP_PATH ||
    path.startsWith(`${SETUP_PATH}/`)
  );
}

const SETUP_PATH = "/admin/setup";

/**
 * A request URL as logs may show it: a secret path's token (and anything
 * after it) replaced by `[token]`, a query that holds the word "token" (in
 * any case or spelling) by `[redacted]`; any other URL as it is.
 */
export function redactSecretPath(url: string): string {
  const path = decodedPath(url);
  for (const prefix of SECRET_PREFIXES) {
    const at = path.indexOf(prefix);
    if (at !== -1) return `${path.slice(0, at)}${prefix}[token]`;
  }
  const query = url.indexOf("?");
  if (query !== -1 && namesToken(url.slice(query + 1))) return `${url.slice(0, query)}?[redacted]`;
  return url;
}

/**
 * Whether a query string holds the word "token" anywhere, as written or
 * decoded (`%74oken`): URLSearchParams decodes each name and value and
 * leaves a malformed escape as it is, as the routes read them.
 */
function namesToken(query: string): boolean {
  if (query.toLowerCase().includes("token")) return true;
  // Only an escape can spell it otherwise; most queries have none, and cost no parse.
  if (!query.includes("%")) return false;
  for (const [name, value] of new URLSearchParams(query)) {
    if (`${name}=${value}`.toLowerCase().includes("token")) return true;
  }
  return false;
}
