/** Rules for administrator credentials, shown in forms and enforced on the server. */
export const MIN_PASSWORD_LENGTH = 10;
/** Longer is refused before any hashing: a password is a secret, not a payload. */
export const MAX_PASSWORD_LENGTH = 1024;
