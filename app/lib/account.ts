/** Rules for administrator credentials, shown in forms and enforced on the server. */
export const MIN_PASSWORD_LENGTH = 10;
