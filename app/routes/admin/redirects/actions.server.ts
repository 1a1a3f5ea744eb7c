import type { RouterContextProvider } from "react-router";
import { redirectsText as text } from "~/content/redirects";
import { CSV_IMPORT_LIMITS, isRedirectStatus } from "~/lib/redirects";
import { recordAudit } from "~/server/audit/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";
import { BODY_LIMITS, isStorableText, readBody, readFormBody } from "~/server/platform/http.server";
import {
  createRedirect,
  deleteRedirect,
  importRedirectsCsv,
  RedirectError,
  updateRedirect,
} from "~/server/redirects/index.server";

/**
 * The Redirects screen's action (ADR 051: a screen changes data through its
 * route action): add, change and delete a redirect from an urlencoded form,
 * import a CSV file from a multipart one. Each answers the screen's message;
 * the checks are the domain's, as for the API.
 */

type Answer = { done: string } | { error: string } | { problems: Array<{ line: number; message: string }> };

/** The CSV file of a multipart form, read whole only after the body's bound. */
async function importFile(request: Request): Promise<string | Answer> {
  const bytes = await readBody(request, BODY_LIMITS.json);
  const form = await new Response(new Uint8Array(bytes), {
    headers: { "Content-Type": request.headers.get("Content-Type") ?? "" },
  })
    .formData()
    .catch(() => undefined);
  const file = form?.get("file");
  if (!(file instanceof Blob) || file.size === 0) return { error: text.noFile };
  if (file.size > CSV_IMPORT_LIMITS.bytes) {
    return { error: `The file is too large (${CSV_IMPORT_LIMITS.bytes / 1_000_000} MB at most).` };
  }
  const csv = await file.text();
  return isStorableText(csv) ? csv : { error: "The file holds a character that cannot be stored (a NUL?)." };
}

export async function redirectsAction(request: Request, context: Readonly<RouterContextProvider>): Promise<Answer> {
  const admin = signedInAdmin(context);
  const clientAddress = context.get(clientAddressContext);
  const audit = (action: Parameters<typeof recordAudit>[0]["action"], target: string) =>
    recordAudit({ action, admin, target, request, clientAddress });
  const db = context.get(dbContext);
  if ((request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) {
    const csv = await importFile(request);
    if (typeof csv !== "string") return csv;
    const result = await importRedirectsCsv(db, csv);
    if (!result.ok) return { problems: result.problems };
    await audit("redirects-imported", `${result.imported} redirects`);
    return { done: text.imported(result.imported) };
  }
  const form = await readFormBody(request);
  const intent = form.get("intent");
  const id = String(form.get("id") ?? "");
  try {
    if (intent === "delete") {
      const deleted = await deleteRedirect(db, id);
      if (!deleted) return { done: text.gone };
      await audit("redirect-deleted", `${deleted.from} -> ${deleted.to}`);
      return { done: text.deleted(deleted.from) };
    }
    const status = Number(form.get("status") ?? 301);
    const input = {
      from: String(form.get("from") ?? "").slice(0, 4096),
      to: String(form.get("to") ?? "").slice(0, 4096),
      status: isRedirectStatus(status) ? status : 301,
    };
    if (intent === "create") {
      const created = await createRedirect(db, input);
      await audit("redirect-created", `${created.from} -> ${created.to}`);
      return { done: text.added(created.from) };
    }
    if (intent === "update") {
      const updated = await updateRedirect(db, id, input);
      if (!updated) return { done: text.gone };
      await audit("redirect-updated", `${updated.from} -> ${updated.to}`);
      return { done: text.updated(updated.from) };
    }
    return { error: "Unknown action" };
  } catch (error) {
    if (error instanceof RedirectError) return { error: error.message };
    throw error;
  }
}
