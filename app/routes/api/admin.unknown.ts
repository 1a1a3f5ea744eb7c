import { jsonError } from "~/server/platform/http.server";

// Every /api/admin/* path answers 401 without a session, known or not: this
// route is under the /api/admin layout, whose middleware refuses a stranger first.
function notFound() {
  return jsonError(404, "Not found");
}

export { notFound as loader, notFound as action };
