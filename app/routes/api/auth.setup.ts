import { z } from "zod";
import { MAX_PASSWORD_LENGTH } from "~/lib/account";
import { EMAIL_MAX_LENGTH } from "~/lib/email";
import { AccountError, completeSetup, SetupTokenError } from "~/server/auth.server";
import { getDb } from "~/server/db/index.server";
import { jsonError, methodNotAllowed, readJsonBody } from "~/server/http.server";
import type { Route } from "./+types/auth.setup";

const body = z.object({
  token: z.string().max(200),
  email: z.string().max(EMAIL_MAX_LENGTH),
  password: z.string().max(MAX_PASSWORD_LENGTH),
});

export function loader() {
  return methodNotAllowed(["POST"]);
}

/** Creates the first administrator with the one-time token printed to the log. */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const parsed = body.safeParse(await readJsonBody(request));
  if (!parsed.success) return jsonError(400, "Send a JSON body with token, email and password");
  try {
    const { user, setCookie } = await completeSetup(getDb(), parsed.data);
    return Response.json({ user: { email: user.email } }, { status: 201, headers: { "Set-Cookie": setCookie } });
  } catch (error) {
    if (error instanceof SetupTokenError) return jsonError(403, error.message);
    if (error instanceof AccountError) return jsonError(400, error.message);
    throw error;
  }
}
