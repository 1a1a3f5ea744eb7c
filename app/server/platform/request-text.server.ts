/**
 * Text from a request made safe to store and count: the not-found log
 * (redirects) and the analytics both keep paths and referring hosts. They
 * run on answers a stranger chooses, cache hits included, so each is a plain
 * loop over text already cut to a bound, with no pattern to backtrack.
 */

/** Whether every character is printable ASCII (no space, no control, nothing past `~`). */
function isPrintable(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 0x20 || code >= 0x7f) return false;
  }
  return true;
}

/**
 * Text safe to store: printable ASCII kept, anything else percent-encoded
 * (request paths arrive as latin1). Text that is printable already, nearly
 * every path, comes back as it is, with no copy.
 */
export function printable(text: string): string {
  if (isPrintable(text)) return text;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    out += code > 0x20 && code < 0x7f ? text[i] : `%${(code & 0xff).toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** The host name of a URL (a Referer), lower case, printable and cut to `max`; null for none or one that does not parse. */
export function hostOf(url: string | undefined, max: number): string | null {
  if (!url || url.length > 2048) return null;
  try {
    const host = new URL(url).hostname;
    return host ? printable(host).slice(0, max) : null;
  } catch {
    return null;
  }
}
