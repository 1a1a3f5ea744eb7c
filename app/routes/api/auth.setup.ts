import { z } from "zod";
import { MAX_PASSWORD_LENGTH } from "~/lib/account";
import { EMAIL_MAX_LENGTH } from "~/lib/email";
import { completeSetup } from "~/server/identity/index.server";
import { jsonError, methodNotAllowed, readJsonBody, refusedAttempt } from "~/server/platform/http.server";
import type { Route } from "./+types/auth.setup";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";

const body = z.object({
  token: z.string().max(200),
  email: z.string().max(EMAIL_MAX_LENGTH),
  password: z.string().max(MAX_PASSWORD_LENGTH),
});

export function loader() {
  return methodNotAllowed(["POST"]);
}

/**
 * Creates the first administrator with the one-time token printed to the log:
 * 201 and a session; 400 for a bad e-mail or password; 403 for a wrong token
 * or once an administrator exists; 429 past five attempts from one address;
 * 503 when the password checks are busy (ADR 046).
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const parsed = body.safeParse(await readJsonBody(request));
  if (!parsed.success) return jsonError(400, "Send a JSON body with token, email and password");
  const result = await completeSetup(context.get(dbContext), parsed.data, context.get(clientAddressContext));
  if (!result.ok) return refusedAttempt(result);
  return Response.json(
    { user: { email: result.user.email } },
    { status: 201, headers: { "Set-Cookie": result.setCookie } },
  );
}
