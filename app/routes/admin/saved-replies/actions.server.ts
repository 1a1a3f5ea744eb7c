import type { RouterContextProvider } from "react-router";
import { leadsText as text } from "~/content/leads";
import { recordAudit } from "~/server/audit/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import {
  createSavedReply,
  deleteSavedReply,
  parseAcknowledgement,
  parseSavedReply,
  saveAcknowledgement,
  SavedReplyError,
  updateSavedReply,
} from "~/server/messages/index.server";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";
import { readFormBody } from "~/server/platform/http.server";

/**
 * The Saved replies screen's action (ADR 051): add, change and delete a
 * saved reply, and save the acknowledgement setting, from urlencoded forms;
 * the checks and the audit entries are the API's (ADR 070).
 */

export type SavedRepliesAnswer =
  { intent: string; ok: true; done: string } | { intent: string; ok: false; error: string; id?: string };

export async function savedRepliesAction(
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<{ answer: SavedRepliesAnswer; status: number }> {
  const db = context.get(dbContext);
  const admin = signedInAdmin(context);
  const clientAddress = context.get(clientAddressContext);
  const audit = (action: "saved-reply-changed" | "acknowledgement-changed", target: string) =>
    recordAudit({ action, admin, target, request, clientAddress });
  const form = await readFormBody(request);
  const intent = String(form.get("intent") ?? "");
  const id = String(form.get("id") ?? "").slice(0, 64);
  const fields = () => ({ name: String(form.get("name") ?? ""), body: String(form.get("body") ?? "") });
  try {
    if (intent === "create") {
      const saved = await createSavedReply(db, parseSavedReply(fields()));
      await audit("saved-reply-changed", `added ${saved.name}`);
      return { answer: { intent, ok: true, done: text.added(saved.name) }, status: 200 };
    }
    if (intent === "update") {
      const saved = await updateSavedReply(db, id, parseSavedReply(fields()));
      if (!saved) return { answer: { intent, ok: false, error: text.gone }, status: 404 };
      await audit("saved-reply-changed", `changed ${saved.name}`);
      return { answer: { intent, ok: true, done: text.updated(saved.name) }, status: 200 };
    }
    if (intent === "delete") {
      if (!(await deleteSavedReply(db, id))) return { answer: { intent, ok: false, error: text.gone }, status: 404 };
      await audit("saved-reply-changed", `deleted ${id}`);
      return { answer: { intent, ok: true, done: text.deleted }, status: 200 };
    }
    if (intent === "acknowledgement") {
      const parsed = parseAcknowledgement({
        enabled: form.get("enabled") === "on",
        text: String(form.get("text") ?? ""),
      });
      if (!parsed.ok) return { answer: { intent, ok: false, error: parsed.message }, status: 400 };
      const saved = await saveAcknowledgement(db, parsed.value);
      await audit("acknowledgement-changed", saved.enabled ? "on" : "off");
      return { answer: { intent, ok: true, done: text.ackSaved(saved.enabled) }, status: 200 };
    }
  } catch (error) {
    if (error instanceof SavedReplyError)
      return { answer: { intent, ok: false, error: error.message, id }, status: error.status };
    throw error;
  }
  return { answer: { intent, ok: false, error: "Unknown action" }, status: 400 };
}
