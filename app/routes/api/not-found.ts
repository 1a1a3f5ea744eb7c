import { jsonError } from "~/server/platform/http.server";

const notFound = () => jsonError(404, "Not found");

export { notFound as loader, notFound as action };
