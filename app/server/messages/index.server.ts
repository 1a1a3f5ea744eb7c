/** The inbox domain's interface: what routes, server/ and other domains may use (README.md here). */
export { init } from "./init.server";
export { adminShellData } from "./unread-count.server";
export {
  CONTACT_THROTTLED_MESSAGE,
  countMessagesBySender,
  countUnreadMessages,
  deleteMessage,
  deleteMessagesFrom,
  findMessage,
  listContactMessages,
  setLeadCall,
  setMessageRead,
  storeBookingLead,
} from "./contact.server";
export {
  type AcknowledgementSetting,
  acknowledgementText,
  parseAcknowledgement,
  readAcknowledgement,
  saveAcknowledgement,
} from "./acknowledgement.server";
export { changeLead, countLeadsByStatus, describeLeadChange, leadsBySource, parseLeadChange } from "./leads.server";
export { parseMessageListQuery, parseMessageScreenQuery, parseSender, parseSenderQuery } from "./list-query.server";
export { MESSAGES_CSV_PATH, sendMessagesCsv } from "./messages-export.server";
export type { ContactMessage, Reply } from "./message-row.server";
export { receiveMessage } from "./receive.server";
export { addReply, parseReplyBody, replyBlocker, ReplyError } from "./replies.server";
export {
  createSavedReply,
  deleteSavedReply,
  listSavedReplies,
  parseSavedReply,
  type SavedReply,
  SavedReplyError,
  updateSavedReply,
} from "./saved-replies.server";
