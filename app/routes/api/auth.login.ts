import { z } from "zod";
import { MAX_PASSWORD_LENGTH } from "~/lib/account";
import { EMAIL_MAX_LENGTH } from "~/lib/email";
import { recordSignIn } from "~/server/audit.server";
import { signIn } from "~/server/auth.server";
import { jsonError, methodNotAllowed, readJsonBody } from "~/server/http.server";
import type { Route } from "./+types/auth.login";

const credentials = z.object({
  email: z.string().max(EMAIL_MAX_LENGTH),
  password: z.string().max(MAX_PASSWORD_LENGTH),
});

export function loader() {
  return methodNotAllowed(["POST"]);
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const body = credentials.safeParse(await readJsonBody(request));
  if (!body.success) return jsonError(400, "Send a JSON body with email and password");
  const result = await signIn(body.data, context.clientAddress);
  await recordSignIn(result, body.data.email, request, context.clientAddress);
  if (!result.ok) {
    return jsonError(
      result.status,
      result.error,
      result.status === 429 ? { "Retry-After": String(result.retryAfterSeconds) } : undefined,
    );
  }
  return Response.json(
    { user: { email: result.user.email } },
    { headers: { "Set-Cookie": result.setCookie, "Cache-Control": "no-store" } },
  );
}
