import { ping, type Db } from "../db/db.server";

/** /healthz: 200 when the app and its database answer, 503 otherwise. */
export async function healthResponse(db: Db): Promise<Response> {
  const ok = await ping(db);
  return Response.json(
    { status: ok ? "ok" : "unavailable", database: ok ? "ok" : "unreachable" },
    { status: ok ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
