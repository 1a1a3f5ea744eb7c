import { z } from "zod";
import { deleteMessage, setMessageRead } from "~/server/messages/index.server";
import { dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed, readJsonBody } from "~/server/platform/http.server";
import type { Route } from "./+types/admin.messages.$id";

const patchBody = z.object({ read: z.boolean() });

export function loader() {
  return methodNotAllowed(["PATCH", "DELETE"]);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method === "PATCH") {
    const body = patchBody.safeParse(await readJsonBody(request));
    if (!body.success) return jsonError(400, "Send a JSON body with read: true or false");
    const message = await setMessageRead(context.get(dbContext), params.id, body.data.read);
    return message ? Response.json(message) : jsonError(404, "Message not found");
  }
  if (request.method === "DELETE") {
    return (await deleteMessage(context.get(dbContext), params.id))
      ? new Response(null, { status: 204 })
      : jsonError(404, "Message not found");
  }
  return methodNotAllowed(["PATCH", "DELETE"]);
}
