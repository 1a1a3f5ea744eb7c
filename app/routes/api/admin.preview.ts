import { jsonError, methodNotAllowed, readJsonBody } from "~/server/platform/http.server";
import { dbContext } from "~/server/platform/context.server";
import { MarkdownRenderError, renderPostBody } from "~/server/posts/index.server";
import type { Route } from "./+types/admin.preview";

export function loader() {
  return methodNotAllowed(["POST"]);
}

/**
 * The editor's preview: markdown in, the HTML the public article would show
 * out, from the very pipeline that renders posts at save (docs/product/contract.md#public-content). Doing
 * it here keeps the markdown libraries out of every browser bundle.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const body = await readJsonBody(request);
  const content = (body as { content?: unknown } | null)?.content;
  if (typeof content !== "string") return jsonError(400, "content must be text");
  try {
    const html = await renderPostBody(context.get(dbContext), content);
    return Response.json({ html }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof MarkdownRenderError) return jsonError(error.status, error.message);
    throw error;
  }
}
