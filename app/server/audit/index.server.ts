/** The audit domain's interface: what routes, server/ and other domains may use (README.md here). */
export { auditRowAsKept, listAuditEntries, recordAudit, recordSignIn, startAuditPruning } from "./audit.server";
export { parseAuditListQuery, parseAuditScreenQuery } from "./list-query.server";
