/** Outgoing e-mail: the one SMTP transport, built at start (README.md). */
export { init, getMailer, mailId, noticeAddresses } from "./mail.server";
export { type BulkMail, BulkSendError, createBulkSender } from "./held-send.server";
