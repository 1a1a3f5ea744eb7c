import {
  CONTENT_BODY_LIMIT,
  isContentName,
  parseContent,
  type ContentDocuments,
  type ContentName,
} from "~/lib/site-content";
import { jsonError, readJsonBody } from "../platform/http.server";

/**
 * The /api/admin/content calls' reading of their input (ADR 053): the page's
 * name from the path, a whole document from the body (bounded, then checked
 * by the schema, the first bad field named in `error`), the version headers.
 */

/** The page named in the path, or a 404 thrown for any other name. */
export function contentNameOf(value: string | undefined): ContentName {
  if (value === undefined || value.length > 40 || !isContentName(value)) throw jsonError(404, "No such page");
  return value;
}

/** Room for a draft's version fields around the document. */
const WRAPPER_BYTES = 1024;

/** A body at most the document limit: 413 past it, 400 for JSON that is no object. */
export async function readContentBody(request: Request): Promise<Record<string, unknown>> {
  const body = await readJsonBody(request, CONTENT_BODY_LIMIT + WRAPPER_BYTES);
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw jsonError(400, "Request body must be a JSON object");
  return body as Record<string, unknown>;
}

/** The document checked whole, or a 400 naming the first bad field (with every issue) thrown. */
export function checkedDocument<N extends ContentName>(name: N, value: unknown): ContentDocuments[N] {
  const parsed = parseContent(name, value);
  if (parsed.ok) return parsed.value;
  const [first] = parsed.issues;
  throw Response.json(
    { error: first!.message, field: first!.field, issues: parsed.issues.slice(0, 20) },
    { status: 400 },
  );
}

/** A version number a client sends back (0 or more), or a 400 naming the field. */
export function versionField(value: unknown, field: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0)
    throw jsonError(400, `${field} must be a whole number, 0 or more`);
  return value;
}

/** `If-Match: "3"` (the ETag GET answered): the version the editor opened; undefined without the header. */
export function ifMatchVersion(request: Request): number | undefined {
  const header = request.headers.get("If-Match");
  if (header === null) return undefined;
  const match = header.length <= 24 ? /^(?:W\/)?"(\d{1,15})"$/.exec(header.trim()) : null;
  if (!match) throw jsonError(400, 'If-Match must be the ETag this page answered, like "3"');
  return Number(match[1]);
}

export const contentEtag = (version: number) => `"${version}"`;
