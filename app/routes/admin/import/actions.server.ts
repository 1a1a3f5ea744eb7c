import { data, redirect, type RouterContextProvider } from "react-router";
import { importText as text } from "~/content/import";
import { signedInAdmin } from "~/server/identity/index.server";
import { receiveImport } from "~/server/import/index.server";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";
import { IMPORT_SITE_URL_FIELD } from "~/lib/import";
import { recordAudit } from "~/server/audit/index.server";

/**
 * The Import screen's action (ADR 051: a screen changes data through its
 * route action): the upload goes to the import domain as the API's does
 * (POST /api/admin/import), which stores the file and starts the job; the
 * screen then shows that import's report. A refusal (no file, not an
 * export, a bad address, an import already running, too large) is the
 * domain's JSON `{error}`, shown on the form with the address typed (as far
 * as the upload was read: a refusal before the file's end has not seen it).
 */

export interface ImportRefusal {
  error: string;
  siteUrl: string;
}

/** The message of a refusal's JSON `{error}`; a general one when it has none (a proxy's page). */
async function messageOf(response: Response): Promise<string> {
  const body = (await response.json().catch(() => undefined)) as { error?: unknown } | undefined;
  return typeof body?.error === "string" && body.error ? body.error : text.failedUpload;
}

export async function importAction(request: Request, context: Readonly<RouterContextProvider>) {
  const admin = signedInAdmin(context);
  let siteUrl = "";
  try {
    const { id } = await receiveImport(context.get(dbContext), request, {
      by: admin.email,
      onField: (name, value) => {
        if (name === IMPORT_SITE_URL_FIELD) siteUrl = value.slice(0, 2048);
      },
    });
    await recordAudit({
      action: "posts-import-started",
      admin,
      target: id,
      request,
      clientAddress: context.get(clientAddressContext),
    });
    return redirect(`/admin/import?${new URLSearchParams({ id }).toString()}`);
  } catch (error) {
    if (!(error instanceof Response) || error.status < 400) throw error;
    const refusal: ImportRefusal = { error: await messageOf(error), siteUrl };
    return data(refusal, { status: error.status });
  }
}
