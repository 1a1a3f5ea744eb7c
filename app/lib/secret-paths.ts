/**
 * Paths whose last segment is a secret: an invitation's token is a password
 * until it is used (ADR 038), a share link's opens a draft (ADR 044). Neither
 * may reach a log. React Router matches paths decoded and without regard to
 * case, so these are checked the same way: `/blog/pr%65view/{token}` opens
 * the share link too.
 */
const SECRET_PREFIXES = ["/admin/invite/", "/blog/preview/"] as const;

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

/** Whether a request URL opens a share link (any spelling the router accepts). */
export function isPreviewPath(url: string): boolean {
  return decodedPath(url).startsWith("/blog/preview/");
}

/**
 * A request URL as logs may show it: a secret path's token (and anything
 * after it) replaced by `[token]`; any other URL as it is.
 */
export function redactSecretPath(url: string): string {
  const path = decodedPath(url);
  for (const prefix of SECRET_PREFIXES) {
    const at = path.indexOf(prefix);
    if (at !== -1) return `${path.slice(0, at)}${prefix}[token]`;
  }
  return url;
}
