/** Rules for administrator credentials, shown in forms and enforced on the server. */
export const MIN_PASSWORD_LENGTH = 10;
/** Longer is refused before any hashing: a password is a secret, not a payload. */
export const MAX_PASSWORD_LENGTH = 1024;
/**
 * A two-factor code field's limit: a recovery code (24 letters in six groups)
 * typed with spaces and dashes fits; anything longer is not a code.
 */
export const CODE_MAX_LENGTH = 48;
/** The sign-in answer to a right password on an account with two-factor sign-in on, sent without a code. */
export const CODE_REQUIRED = "Enter the code from your authenticator app";

/**
 * What is wrong with a new password and its repetition, as a form answers it
 * (the setup and invitation pages), or undefined. The length is checked here
 * before any hashing; the minimum is the server's own rule (completeSetup,
 * acceptInvite).
 */
export function newPasswordProblem(password: string, repeated: string): string | undefined {
  if (password !== repeated) return "The two passwords differ.";
  if (password.length > MAX_PASSWORD_LENGTH) return `Use a password of at most ${MAX_PASSWORD_LENGTH} characters.`;
  return undefined;
}
