import { z } from "zod";
import { MAX_PASSWORD_LENGTH } from "~/lib/account";
import { EMAIL_MAX_LENGTH } from "~/lib/email";
import { recordSignIn } from "~/server/audit/index.server";
import { signIn, CODE_MAX_LENGTH } from "~/server/identity/index.server";
import { jsonError, methodNotAllowed, readJsonBody, retryAfterHeaders } from "~/server/platform/http.server";
import type { Route } from "./+types/auth.login";
import { clientAddressContext } from "~/server/platform/context.server";

const credentials = z.object({
  email: z.string().max(EMAIL_MAX_LENGTH),
  password: z.string().max(MAX_PASSWORD_LENGTH),
  /** With 2FA on (ADR 037): a current TOTP code or an unused recovery code. */
  code: z.string().max(CODE_MAX_LENGTH).optional(),
});

export function loader() {
  return methodNotAllowed(["POST"]);
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const body = credentials.safeParse(await readJsonBody(request));
  if (!body.success) return jsonError(400, "Send a JSON body with email and password");
  const result = await signIn(
    { ...body.data, userAgent: request.headers.get("User-Agent") },
    context.get(clientAddressContext),
  );
  await recordSignIn(result, body.data.email, request, context.get(clientAddressContext), {
    codeGiven: body.data.code !== undefined && body.data.code !== "",
  });
  if (!result.ok) {
    const headers = retryAfterHeaders(result);
    // docs/product/contract.md#two-factor-sign-in: `twoFactorRequired` beside `error`, only once the password was right.
    if ("twoFactorRequired" in result && result.twoFactorRequired) {
      return Response.json({ error: result.error, twoFactorRequired: true }, { status: result.status, headers });
    }
    return jsonError(result.status, result.error, headers);
  }
  return Response.json(
    { user: { email: result.user.email } },
    { headers: { "Set-Cookie": result.setCookie, "Cache-Control": "no-store" } },
  );
}
