import { z } from "zod";
import { AUDIT_ACTIONS } from "~/lib/audit";
import { isRecordId } from "../db/ids.server";
import { type QueryResult, pagedList } from "../platform/paging.server";
import type { AuditQuery } from "./audit.server";

/** The audit log's query strings (ADR 038): the platform's paging plus `action` and `admin`; empty means all. */

const auditAction = z
  .union([z.literal(""), z.enum(AUDIT_ACTIONS)], { error: `action must be one of ${AUDIT_ACTIONS.join(", ")}` })
  .transform((value) => value || undefined)
  .optional();
const auditAdmin = z
  .string()
  .refine((value) => value === "" || isRecordId(value), { error: "admin must be an administrator's id" })
  .transform((value) => value || undefined)
  .optional();
const auditLists = pagedList({ action: auditAction, admin: auditAdmin });

/** GET /api/admin/audit: `limit` (1-100, default 50), `offset`, `action`, `admin`. */
export function parseAuditListQuery(url: URL): QueryResult<AuditQuery> {
  return auditLists.list(url);
}

/** /admin/audit: `page`, `action`, `admin`. */
export function parseAuditScreenQuery(url: URL): QueryResult<AuditQuery & { page: number }> {
  return auditLists.screen(url);
}
