/** Rules for administrator credentials, shown in forms and enforced on the server. */
export const MIN_PASSWORD_LENGTH = 10;
/** Longer is refused before any hashing: a password is a secret, not a payload. */
export const MAX_PASSWORD_LENGTH = 1024;
/** A two-factor code field's limit: a recovery code typed with spaces and dashes fits; anything longer is not a code. */
export const CODE_MAX_LENGTH = 32;
/** The sign-in answer to a right password on an account with two-factor sign-in on, sent without a code. */
export const CODE_REQUIRED = "Enter the code from your authenticator app";
