/** The identity domain's interface: what routes, server/ and other domains may use (README.md here). */
export { init } from "./init.server";
export {
  AccountError,
  administratorEmail,
  changeOwnPassword,
  countAdmins,
  MIN_PASSWORD_LENGTH,
  normaliseEmail,
  upsertAdmin,
} from "./accounts.server";
export {
  acceptInvite,
  AdminsError,
  createInvite,
  INVITE_STATE_MESSAGES,
  InviteError,
  inviteState,
  listAdministrators,
  listPendingInvites,
  removeAdministrator,
  revokeInvite,
} from "./administrators.server";
export { adminApiMiddleware, adminPageMiddleware, signedInAdmin } from "./middleware.server";
export { busyRefusal, HashingBusyError } from "./passwords.server";
export {
  type AdminUser,
  deleteExpiredSessions,
  getAdmin,
  hasSessionCookie,
  listOwnSessions,
  requireAdminApi,
  requireAdminPage,
  revokeOtherSessions,
  revokeOwnSession,
  signOut,
} from "./sessions.server";
export { completeSetup, createSetupToken, isSetupTokenValid } from "./setup.server";
export { createLinkSigner, type LinkSigner } from "./signed-links.server";
export { checkOwnPassword, clearSignInThrottle, PASSWORD_MISSING, PASSWORD_REQUIRED, signIn } from "./sign-in.server";
export { getTotpKey, KEY_FILE_NAME, throttleKeyMaterial, type TotpKey } from "./two-factor-key.server";
export {
  beginSetup,
  CODE_MAX_LENGTH,
  disableTwoFactor,
  enableTwoFactor,
  encryptPlainSecrets,
  isPlainSecret,
  openSecret,
  opensWith,
  pendingSetup,
  qrCodeSvg,
  resetTwoFactor,
  sealSecret,
  TwoFactorError,
  twoFactorStatus,
  unreadableSecrets,
} from "./two-factor.server";
