import {
  parsePostInput,
  MarkdownRenderError,
  parsePostListQuery,
  createPost,
  listAdminPosts,
  SlugTakenError,
} from "~/server/posts/index.server";
import { recordAudit } from "~/server/audit/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import { jsonError, methodNotAllowed, readJsonBody } from "~/server/platform/http.server";
import { ImageMissingError } from "~/server/images/index.server";
import type { Route } from "./+types/admin.posts";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const query = parsePostListQuery(new URL(request.url));
  if (!query.ok) return jsonError(400, query.message);
  const { posts, total } = await listAdminPosts(context.get(dbContext), query.value);
  return Response.json(posts, { headers: { "X-Total-Count": String(total), "Cache-Control": "no-store" } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  const input = parsePostInput(await readJsonBody(request));
  if (!input.ok) return jsonError(400, input.message);
  try {
    const post = await createPost(context.get(dbContext), input.value, { by: admin });
    const audit = { admin, target: post.slug, request, clientAddress: context.get(clientAddressContext) };
    await recordAudit({ action: "post-created", ...audit });
    if (post.published) await recordAudit({ action: "post-published", ...audit });
    return Response.json(post, { status: 201 });
  } catch (error) {
    if (error instanceof SlugTakenError || error instanceof ImageMissingError) return jsonError(409, error.message);
    if (error instanceof MarkdownRenderError) return jsonError(error.status, error.message);
    throw error;
  }
}
