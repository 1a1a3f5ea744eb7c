import type { RouterContextProvider } from "react-router";
import { subscribersAdminText as text } from "~/content/subscribers-admin";
import { recordAudit } from "~/server/audit/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import { importSubscribersCsv, removeSubscriber, SUBSCRIBER_IMPORT_LIMITS } from "~/server/newsletter/index.server";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";
import { BODY_LIMITS, readBody, readFormBody } from "~/server/platform/http.server";

/**
 * The Subscribers screen's action (ADR 051: a screen changes data through
 * its route action): a subscriber removed from an urlencoded form, or a CSV
 * file imported from a multipart one. Each does what its API route does
 * (DELETE /api/admin/subscribers/{id}, POST /api/admin/subscribers/import),
 * audited the same way, and answers what the screen says.
 */

type SubscriberImport = Awaited<ReturnType<typeof importSubscribersCsv>>;
export type RemoveAnswer = { removed: true; email: string } | { removed: false };
export type ImportAnswer = { imported: SubscriberImport } | { importError: string };
export type SubscribersAnswer = RemoveAnswer | ImportAnswer;

type Audit = (action: "subscriber-removed" | "subscribers-imported", target: string) => Promise<void>;

/** The file and the owner's choice of a multipart form, read whole only within the body's bound. */
async function importForm(request: Request): Promise<{ csv: string; consented: boolean } | { importError: string }> {
  let bytes: Buffer;
  try {
    bytes = await readBody(request, BODY_LIMITS.json);
  } catch (error) {
    if (error instanceof Response && error.status === 413)
      return { importError: text.tooLarge(SUBSCRIBER_IMPORT_LIMITS.bytes) };
    throw error;
  }
  const form = await new Response(new Uint8Array(bytes), {
    headers: { "Content-Type": request.headers.get("Content-Type") ?? "" },
  })
    .formData()
    .catch(() => undefined);
  const file = form?.get("file");
  if (!(file instanceof Blob) || file.size === 0) return { importError: text.noFile };
  if (file.size > SUBSCRIBER_IMPORT_LIMITS.bytes) return { importError: text.tooLarge(SUBSCRIBER_IMPORT_LIMITS.bytes) };
  const content = new Uint8Array(await file.arrayBuffer());
  // A NUL byte is no text file's: an image, a spreadsheet's own format, a PDF.
  if (content.includes(0)) return { importError: text.notText };
  const consent = form?.get("consent");
  if (consent !== "yes" && consent !== "no") return { importError: text.noConsent };
  // UTF-8, its byte-order mark dropped; a stray byte of another encoding becomes U+FFFD, not an error.
  return { csv: new TextDecoder().decode(content), consented: consent === "yes" };
}

async function importSubscribers(request: Request, context: Readonly<RouterContextProvider>, audit: Audit) {
  const input = await importForm(request);
  if ("importError" in input) return { answer: input, status: 400 };
  const result = await importSubscribersCsv(context.get(dbContext), input.csv, input.consented);
  if (result.added > 0)
    await audit("subscribers-imported", `${result.added} subscribers${input.consented ? " (consented)" : ""}`);
  return { answer: { imported: result }, status: 200 };
}

async function remove(request: Request, context: Readonly<RouterContextProvider>, audit: Audit) {
  const form = await readFormBody(request);
  const removed = await removeSubscriber(context.get(dbContext), form.get("id") ?? "");
  if (!removed) return { answer: { removed: false } as const, status: 404 };
  // The id, not the address: a removed address is forgotten, the audit log included.
  await audit("subscriber-removed", `subscriber ${removed.id}`);
  return { answer: { removed: true, email: removed.email } as const, status: 200 };
}

export async function subscribersAction(
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<{ answer: SubscribersAnswer; status: number }> {
  const admin = signedInAdmin(context);
  const audit: Audit = (action, target) =>
    recordAudit({ action, admin, target, request, clientAddress: context.get(clientAddressContext) });
  const multipart = (request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data");
  return multipart ? importSubscribers(request, context, audit) : remove(request, context, audit);
}
