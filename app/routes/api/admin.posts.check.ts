import { configContext, dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed, readJsonBody } from "~/server/platform/http.server";
import { checkBeforePublishing, MarkdownRenderError, parsePublishCheckInput } from "~/server/posts/index.server";
import type { Route } from "./+types/admin.posts.check";

export function loader() {
  return methodNotAllowed(["POST"]);
}

/**
 * The check before publishing (ADR 057, docs/api.md): a draft's body in, what
 * in it would greet readers broken out, each with its place in the text.
 * It changes nothing; the editor asks it before a save that publishes.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const input = parsePublishCheckInput(await readJsonBody(request));
  if (!input.ok) return jsonError(400, input.message);
  // This site is its configured address and the one the admin is using.
  const origins = [...new Set([new URL(context.get(configContext).siteUrl).origin, new URL(request.url).origin])];
  try {
    const check = await checkBeforePublishing(context.get(dbContext), input.value, { origins });
    return Response.json(check, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof MarkdownRenderError) return jsonError(error.status, error.message);
    throw error;
  }
}
