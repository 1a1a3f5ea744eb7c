/**
 * Paths whose last segment is a secret: an invitation's token is a password
 * until it is used (ADR 038), a share link's opens a draft (ADR 044), a
 * booking's link (`/book/manage/{token}`) cancels or moves the call
 * (ADR 071), a subscriber's links confirm or end a subscription (ADR 072).
 * None may reach a log. React Router matches paths decoded and
 * without regard to case, so these are checked the same way:
 * `/blog/pr%65view/{token}` opens the share link too. The first
 * administrator's setup link carries its token in the query
 * (`/admin/setup?token=`): a query naming a token is not logged either
 * (ADR 048).
 */
/** Links signed for one record (a booking, a subscriber): their pages are kept by no cache. */
const SIGNED_LINK_PREFIXES = ["/book/manage/", "/newsletter/confirm/", "/newsletter/unsubscribe/"] as const;
const SECRET_PREFIXES = ["/admin/invite/", "/blog/preview/", "/pages/preview/", ...SIGNED_LINK_PREFIXES] as const;

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

/** Whether a request URL opens a booking's or a subscriber's signed link (any spelling the router accepts; ADR 071, 072). */
export function isSignedLinkPath(url: string): boolean {
  const path = decodedPath(url);
  return SIGNED_LINK_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/**
 * Whether a request URL is a page whose own address holds a secret: a share
 * link, an invitation, a booking's link, or the setup page (its token in the
 * query). Such a page must not send its address on as a referrer (ADR 048).
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

/** A token in a path is at least this long: the site's own are 32 and 43 characters (base64url). */
const TOKEN_MIN_LENGTH = 20;
/** A piece between - and _ this long that changes kind this often is a token wherever it stands. */
const TOKEN_PIECE_MIN_LENGTH = 16;
/**
 * How often a token's characters change kind at least (digit, lower case,
 * upper case; not across - and _, and a capital after a lower-case letter not
 * counted, so CamelCase names stay). Random base64url of 32 characters has
 * fewer about once in 15,000, of 43 characters never in 300,000.
 */
const TOKEN_MIN_CHANGES = 4;
/**
 * A run that changes kind this often is a token even where a piece reads as
 * a word: random base64url reads as one now and then (`..._eul_...`), and no
 * slug or file name alternates digits and capitals this much.
 */
const TOKEN_WORDY_MIN_CHANGES = 8;

/** 1 digit, 2 lower case, 3 upper case, 0 another character of base64url (- _), -1 any other. */
function kindOf(code: number): number {
  if (code >= 0x30 && code <= 0x39) return 1;
  if (code >= 0x61 && code <= 0x7a) return 2;
  if (code >= 0x41 && code <= 0x5a) return 3;
  return code === 0x2d || code === 0x5f ? 0 : -1;
}

/** Lower-case letters past f: a word has them, hex digits do not. */
const isWordLetter = (code: number) => code >= 0x67 && code <= 0x7a;

/**
 * Whether a path segment holds something that looks like a random token: a
 * run of at least TOKEN_MIN_LENGTH base64url characters (hex and UUIDs
 * included) whose characters change kind at least TOKEN_MIN_CHANGES times
 * and that holds no word (a piece between - and _ of three or more lower-case
 * letters, one past f), or a single piece of TOKEN_PIECE_MIN_LENGTH that
 * changes kind that often. So a slug with a short id at its end
 * (`dismiss-me-desktop-mx0mh7lq`) stays, and so do dates, versions and file
 * names (IMG_20190512_123456); a token with words before it does not
 * (`reset-Xa8dk2jD92kdm2KD9dk2`), nor does a piece of the token that reads as
 * a word when the run changes kind TOKEN_WORDY_MIN_CHANGES times. Misses:
 * about 1 in 1,900 random 32-character base64url tokens and 1 in 30,000 of
 * 43 characters (300,000 of each tried); hex and UUIDs have no word letters. One pass over the
 * segment, no pattern.
 */
export function looksLikeToken(segment: string): boolean {
  let length = 0;
  let changes = 0;
  let previous = 0;
  let wordy = false;
  let piece = { length: 0, changes: 0, lower: true, wordLetter: false };
  const endPiece = () => {
    if (piece.length >= 3 && piece.lower && piece.wordLetter) wordy = true;
    const token = piece.length >= TOKEN_PIECE_MIN_LENGTH && piece.changes >= TOKEN_MIN_CHANGES;
    piece = { length: 0, changes: 0, lower: true, wordLetter: false };
    return token;
  };
  for (let i = 0; i <= segment.length; i++) {
    const code = i < segment.length ? segment.charCodeAt(i) : -1;
    const kind = code === -1 ? -1 : kindOf(code);
    if (kind <= 0) {
      if (endPiece()) return true;
      previous = 0;
      if (kind === 0) {
        length++;
        continue;
      }
      if (length >= TOKEN_MIN_LENGTH && changes >= (wordy ? TOKEN_WORDY_MIN_CHANGES : TOKEN_MIN_CHANGES)) return true;
      length = changes = 0;
      wordy = false;
      continue;
    }
    length++;
    piece.length++;
    if (kind !== 2) piece.lower = false;
    else if (isWordLetter(code)) piece.wordLetter = true;
    if (previous > 0 && kind !== previous && !(previous === 3 && kind === 2)) {
      changes++;
      piece.changes++;
    }
    previous = kind;
  }
  return false;
}

/**
 * A path (without its query) as a log that keeps paths may store it: a
 * secret path's token replaced as redactSecretPath does, and any other
 * segment that looks like a token (looksLikeToken) replaced by `[token]`.
 * Linear in the path's length; callers bound it first.
 */
export function redactTokenSegments(path: string): string {
  return redactSecretPath(path)
    .split("/")
    .map((segment) => (looksLikeToken(segment) ? "[token]" : segment))
    .join("/");
}
