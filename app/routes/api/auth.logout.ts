import { signOut } from "~/server/auth.server";
import { methodNotAllowed } from "~/server/http.server";
import type { Route } from "./+types/auth.logout";

export function loader() {
  return methodNotAllowed(["POST"]);
}

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  return new Response(null, { status: 204, headers: { "Set-Cookie": await signOut(request) } });
}
