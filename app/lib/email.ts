/** The longest e-mail address we accept (RFC 5321's path limit, less the brackets). */
export const EMAIL_MAX_LENGTH = 320;

/**
 * something@something.tld, no spaces. The domain is split at its first dot so
 * that no two parts of the pattern can match the same characters: the check is
 * linear in the input, and the length is bounded before the pattern runs.
 */
const EMAIL = /^[^\s@]+@[^\s@][^\s.@]*\.[^\s@]+$/;

/** One rule for every e-mail field (contact form, sign-in, setup), on both sides. */
export function isValidEmail(email: string): boolean {
  return email.length <= EMAIL_MAX_LENGTH && EMAIL.test(email);
}
