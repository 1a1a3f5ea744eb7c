/** The audit domain's interface: what routes, server/ and other domains may use (README.md here). */
export { auditRowAsKept, listAuditEntries, pruneAuditLogAtStart, recordAudit, recordSignIn } from "./audit.server";
export { init } from "./init.server";
export { parseAuditListQuery, parseAuditScreenQuery } from "./list-query.server";
