import { redirect } from "react-router";
import { signOut } from "~/server/auth.server";
import type { Route } from "./+types/admin.logout";

export const loader = () => redirect("/admin");

export async function action({ request }: Route.ActionArgs) {
  return redirect("/admin/login", { headers: { "Set-Cookie": await signOut(request) } });
}
