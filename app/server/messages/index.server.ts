/** The inbox domain's interface: what routes, server/ and other domains may use (README.md here). */
export { init } from "./init.server";
export { adminShellData } from "./unread-count.server";
export {
  CONTACT_THROTTLED_MESSAGE,
  countMessagesBySender,
  countUnreadMessages,
  deleteMessage,
  deleteMessagesFrom,
  listContactMessages,
  setMessageRead,
} from "./contact.server";
export { parseMessageListQuery, parseMessageScreenQuery, parseSender, parseSenderQuery } from "./list-query.server";
export { MESSAGES_CSV_PATH, sendMessagesCsv } from "./messages-export.server";
export { receiveMessage } from "./receive.server";
