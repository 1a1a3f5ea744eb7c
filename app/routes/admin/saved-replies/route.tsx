import { useEffect, useRef } from "react";
import { useAnswerCount } from "~/components/admin/use-answer-count";
import { data, useNavigation } from "react-router";
import { AdminScreen } from "~/components/admin/admin-screen";
import { ACKNOWLEDGEMENT_PREVIEW_NAME, leadsText as text } from "~/content/leads";
import { pageMeta } from "~/lib/seo";
import { acknowledgementText, listSavedReplies, readAcknowledgement } from "~/server/messages/index.server";
import { dbContext } from "~/server/platform/context.server";
import { readSiteSettings } from "~/server/settings/index.server";
import type { Route } from "./+types/route";
import { AcknowledgementForm } from "./acknowledgement-form";
import { savedRepliesAction } from "./actions.server";
import { SavedReplyFields } from "./saved-reply-fields";
import { SavedReplyItem } from "./saved-reply-item";

/** /admin/saved-replies: the owner's saved replies (at most 50, never paged) and the acknowledgement (ADR 070). */
export async function loader({ context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const [savedReplies, acknowledgement, settings] = await Promise.all([
    listSavedReplies(db),
    readAcknowledgement(db),
    readSiteSettings(db),
  ]);
  // What a sender receives with the saved text (or the default), their name and the company's filled in.
  const preview = acknowledgementText(acknowledgement.text, ACKNOWLEDGEMENT_PREVIEW_NAME, settings.companyName);
  return { savedReplies, acknowledgement, preview };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { answer, status } = await savedRepliesAction(request, context);
  return data(answer, { status });
}

export const meta = () => pageMeta({ title: "Saved replies | Blog Admin", noindex: true });

export default function AdminSavedReplies({ loaderData, actionData }: Route.ComponentProps) {
  const { savedReplies, acknowledgement, preview } = loaderData;
  const navigation = useNavigation();
  const busyIntent = navigation.state === "submitting" ? navigation.formData?.get("intent") : undefined;
  const busyId = navigation.formData?.get("id");
  const notice = useRef<HTMLDivElement>(null);
  // Every outcome shows at the top, where focus goes so it is read.
  useEffect(() => {
    if (actionData) notice.current?.focus();
  }, [actionData]);
  const adds = useAnswerCount(actionData, ["create"]);
  return (
    <AdminScreen width="3xl" title={text.savedTitle} intro={text.savedIntro}>
      <div ref={notice} tabIndex={-1} className="mt-4 outline-none">
        <div role="status">
          {actionData?.ok && (
            <p className="rounded-md border border-green-300 bg-green-50 px-3 py-2 text-green-900">{actionData.done}</p>
          )}
        </div>
        <div role="alert">
          {actionData && !actionData.ok && (
            <p className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-red-900">{actionData.error}</p>
          )}
        </div>
      </div>
      <section aria-labelledby="add-saved" className="mt-6 rounded-lg border border-neutral-200 bg-white p-5">
        <h2 id="add-saved" className="text-xl font-semibold">
          {text.addHeading}
        </h2>
        {/* A new key after each add empties the fields; nothing else does (a refused add keeps them). */}
        <SavedReplyFields key={adds} idPrefix="new" intent="create" submit={text.add} busy={busyIntent === "create"} />
      </section>
      <section aria-labelledby="saved-list" className="mt-8">
        <h2 id="saved-list" className="text-xl font-semibold">
          {text.listHeading}
        </h2>
        <p className="mt-1 text-neutral-700">
          {savedReplies.length === 0 ? text.none : text.count(savedReplies.length)}
        </p>
        <ul className="mt-3 flex flex-col gap-3">
          {savedReplies.map((saved) => (
            <SavedReplyItem
              key={`${saved.id}-${saved.updatedAt}`}
              saved={saved}
              busy={busyId === saved.id ? busyIntent : undefined}
            />
          ))}
        </ul>
      </section>
      <AcknowledgementForm setting={acknowledgement} preview={preview} busy={busyIntent === "acknowledgement"} />
    </AdminScreen>
  );
}
