import { useNavigation } from "react-router";
import { AdminScreen } from "~/components/admin/admin-screen";
import { importText as text } from "~/content/import";
import { pageMeta } from "~/lib/seo";
import { findImport, listImports } from "~/server/import/index.server";
import { dbContext } from "~/server/platform/context.server";
import type { Route } from "./+types/route";
import { importAction } from "./actions.server";
import { EarlierImports } from "./earlier-imports";
import { ImportReportView } from "./import-report";
import { UploadForm } from "./upload-form";
import { useFocusAfterUpload } from "./use-focus-after-upload";
import { useRefusal } from "./use-refusal";
import { IMPORTS_SHOWN } from "./view";

/** An id is a short token: anything longer names no import. */
const MAX_ID_CHARS = 100;

/**
 * /admin/import(?id=): Admin > Import (ADR 074). The owner uploads a
 * WordPress or Ghost export; the import runs as a job, and this screen
 * shows its report (the one `id` names, else the newest), following it
 * while it runs, and the last imports.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const id = (new URL(request.url).searchParams.get("id") ?? "").slice(0, MAX_ID_CHARS);
  const [named, { items }] = await Promise.all([
    id ? findImport(db, id) : undefined,
    listImports(db, { limit: IMPORTS_SHOWN, offset: 0 }),
  ]);
  return { report: named ?? items[0] ?? null, imports: items, missing: id !== "" && !named };
}

export const action = ({ request, context }: Route.ActionArgs) => importAction(request, context);

export const meta = () => pageMeta({ title: `${text.title} | Blog Admin`, noindex: true });

export default function AdminImport({ loaderData, actionData }: Route.ComponentProps) {
  const { report, imports, missing } = loaderData;
  const navigation = useNavigation();
  const uploading = navigation.state === "submitting" && navigation.formAction?.startsWith("/admin/import") === true;
  const refusal = useRefusal(actionData, uploading);
  const focus = useFocusAfterUpload({ uploading, settled: navigation.state === "idle", refused: Boolean(refusal) });
  return (
    <AdminScreen width="3xl" title={text.title} intro={text.intro}>
      {/* A new import empties the form (its file, the address typed). */}
      <UploadForm key={report?.id} refusal={refusal} uploading={uploading} refusalRef={focus.refusal} />
      {missing && (
        <p role="status" className="mt-6 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-950">
          {text.notFound(report !== null)}
        </p>
      )}
      {report && <ImportReportView report={report} headingRef={focus.report} />}
      <EarlierImports imports={imports} shown={report?.id} />
    </AdminScreen>
  );
}
