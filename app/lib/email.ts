/** The longest e-mail address we accept (RFC 5321's path limit, less the brackets). */
export const EMAIL_MAX_LENGTH = 320;

/**
 * something@something.tld, with none of the characters that make an address
 * mean something else to a mail library (a display name's `<...>`, a list's
 * comma, quotes, comments, control characters): `x<a@b.c>` must not send to
 * a@b.c. The domain is split at its first dot so that no two parts of the
 * pattern can match the same characters: the check is linear in the input,
 * and the length is bounded before the pattern runs.
 */
const EMAIL =
  /^[^\s\p{Cc}"(),:;<>@[\\\]]+@[^\s\p{Cc}"(),:;<>@[\\\]][^\s\p{Cc}".(),:;<>@[\\\]]*\.[^\s\p{Cc}"(),:;<>@[\\\]]+$/u;

/** One rule for every e-mail field (contact form, sign-in, setup), on both sides. */
export function isValidEmail(email: string): boolean {
  return email.length <= EMAIL_MAX_LENGTH && EMAIL.test(email);
}

/**
 * The mailbox an address reaches, as far as we can tell: lower case, and
 * without a `+tag` (name+1@ and name+2@ reach one person), so one mailbox is
 * counted once however it is spelled (the acknowledgement's throttle, the
 * limit on calls booked per address).
 */
export function mailboxOf(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf("@");
  if (at < 0) return address;
  const local = address.slice(0, at);
  const plus = local.indexOf("+");
  return `${plus > 0 ? local.slice(0, plus) : local}${address.slice(at)}`;
}
