import type { RouterContextProvider } from "react-router";
import { leadsText as text } from "~/content/leads";
import { recordAudit } from "~/server/audit/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import {
  addReply,
  changeLead,
  describeLeadChange,
  parseLeadChange,
  parseReplyBody,
  ReplyError,
} from "~/server/messages/index.server";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";
import { readFormBody } from "~/server/platform/http.server";

/**
 * The lead screen's action (ADR 051: a screen changes data through its route
 * action): save the status, follow-up and note; "Not spam"; send a reply.
 * The checks and the audit entries are the API's (ADR 070).
 */

export type LeadAnswer = { intent: string; ok: true; done: string } | { intent: string; ok: false; error: string };

export async function leadAction(
  request: Request,
  context: Readonly<RouterContextProvider>,
  id: string,
): Promise<{ answer: LeadAnswer; status: number }> {
  const db = context.get(dbContext);
  const admin = signedInAdmin(context);
  const clientAddress = context.get(clientAddressContext);
  const form = await readFormBody(request);
  const intent = String(form.get("intent") ?? "");
  if (intent === "save" || intent === "not-spam") {
    const change = parseLeadChange(
      intent === "save"
        ? {
            status: String(form.get("status") ?? ""),
            followUpAt: String(form.get("followUpAt") ?? ""),
            note: String(form.get("note") ?? ""),
          }
        : { status: "new" },
    );
    if (!change.ok) return { answer: { intent, ok: false, error: change.message }, status: 400 };
    const changed = await changeLead(db, id, change.value);
    if (!changed) return { answer: { intent, ok: false, error: "Message not found" }, status: 404 };
    const described = describeLeadChange(changed.before, changed.after);
    if (described)
      await recordAudit({
        action: "lead-updated",
        admin,
        target: `${changed.after.id}: ${described}`,
        request,
        clientAddress,
      });
    const done = intent === "not-spam" ? text.notSpamDone : described ? text.saved : text.nothingChanged;
    return { answer: { intent, ok: true, done }, status: 200 };
  }
  if (intent === "reply") {
    try {
      const body = parseReplyBody(form.get("body"));
      const key = String(form.get("key") ?? "").slice(0, 200) || undefined;
      const { created } = await addReply(db, id, body, key);
      if (created) await recordAudit({ action: "reply-sent", admin, target: id, request, clientAddress });
      return { answer: { intent, ok: true, done: text.replyQueued }, status: 200 };
    } catch (error) {
      if (error instanceof ReplyError)
        return { answer: { intent, ok: false, error: error.message }, status: error.status };
      throw error;
    }
  }
  return { answer: { intent, ok: false, error: "Unknown action" }, status: 400 };
}
