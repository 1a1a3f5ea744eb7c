/** The inbox domain's interface: what routes, server/ and other domains may use (README.md here). */
export { init } from "./init.server";
export { adminShellData } from "./admin-shell.server";
export { parseContactInput } from "./contact-input.server";
export {
  CONTACT_THROTTLED_MESSAGE,
  contactThrottle,
  countMessagesBySender,
  countUnreadMessages,
  deleteMessage,
  deleteMessagesFrom,
  listContactMessages,
  scheduleNoticeSweep,
  setMessageRead,
  startContactNotices,
  storeContactMessage,
} from "./contact.server";
export { parseMessageListQuery, parseMessageScreenQuery, parseSender, parseSenderQuery } from "./list-query.server";
export { getMailer } from "./mail.server";
export { MESSAGES_CSV_PATH, sendMessagesCsv } from "./messages-export.server";
export { type Received, receiveMessage, TOO_FAST_MESSAGE } from "./receive.server";
