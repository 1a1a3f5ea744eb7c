import { requireAdminApi } from "~/server/auth.server";
import { listContactMessages } from "~/server/contact.server";
import { getDb } from "~/server/db/index.server";
import { methodNotAllowed } from "~/server/http.server";
import type { Route } from "./+types/admin.messages";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminApi(request);
  return Response.json(await listContactMessages(getDb()), { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdminApi(request);
  return methodNotAllowed(["GET"]);
}
