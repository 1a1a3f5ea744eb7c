import { exportSubscribersCsv } from "~/server/newsletter/index.server";
import { dbContext } from "~/server/platform/context.server";
import { methodNotAllowed } from "~/server/platform/http.server";
import type { Route } from "./+types/admin.subscribers.csv";

/** GET /api/admin/subscribers.csv: every subscriber (ADR 072), UTF-8 with a byte-order mark. */
export async function loader({ context }: Route.LoaderArgs) {
  const day = new Date().toISOString().slice(0, 10);
  return new Response(await exportSubscribersCsv(context.get(dbContext)), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="subscribers-${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
