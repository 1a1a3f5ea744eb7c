import type { MiddlewareFunction, RouterContextProvider } from "react-router";
import { unavailableText } from "~/content/unavailable";
import type { Connection } from "../db/db.server";
import { connectionContext, staleAnswerContext } from "./context.server";

/**
 * The answer while the database cannot be reached (ADR 075): 503 with
 * Retry-After, at once, never a 500 or a wait. Express sends it before a
 * request that needs the database starts (server/app.ts); the root route's
 * middleware swaps it in for the 500 of a request that met the outage
 * midway. A cached public page is still served before either (the page
 * cache's stale answer).
 */

const RETRY_AFTER_SECONDS = 5;

/** True while this process finds the database unreachable (PostgreSQL; SQLite is a file beside it). */
export function databaseAway(connection: Connection): boolean {
  return connection.kind === "postgres" && connection.reachability.unreachableFor() !== undefined;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

/** The body and its type: a small page for a browser's page request, else JSON with `error`. */
export function unavailableBody(path: string, accept: string | undefined): { type: string; body: string } {
  const page = !path.startsWith("/api/") && !path.endsWith(".data") && (accept ?? "").includes("text/html");
  if (!page) return { type: "application/json", body: JSON.stringify({ error: unavailableText.apiError }) };
  const { title, message } = unavailableText;
  return {
    type: "text/html; charset=utf-8",
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></main></body></html>`,
  };
}

export const UNAVAILABLE_HEADERS = { "Retry-After": String(RETRY_AFTER_SECONDS), "Cache-Control": "no-store" };

function unavailableResponse(request: Request): Response {
  const { type, body } = unavailableBody(new URL(request.url).pathname, request.headers.get("accept") ?? undefined);
  return new Response(body, { status: 503, headers: { ...UNAVAILABLE_HEADERS, "Content-Type": type } });
}

/** The page cache's old answer for a page request, marked stale; undefined when it has none. */
function staleResponse(request: Request, context: Readonly<RouterContextProvider>): Response | undefined {
  if (request.method !== "GET") return undefined;
  const url = new URL(request.url);
  const stale = context.get(staleAnswerContext)(url.pathname + url.search, true);
  if (!stale) return undefined;
  const headers = new Headers(stale.headers);
  headers.set("X-Cache", "stale");
  return new Response(new Uint8Array(stale.body), { status: stale.status, headers });
}

/**
 * The root route's middleware: a 5xx that met the database's outage gives
 * way to the page cache's old answer for a public page, else to the 503
 * above.
 */
export const unavailableWhileDatabaseAway: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const connection = context.get(connectionContext);
  const startedAt = Date.now();
  // Away now, or away for a moment during this request (it may be back by the time the render ends).
  const metOutage = () =>
    databaseAway(connection) || (connection.kind === "postgres" && connection.reachability.failedSince(startedAt));
  const away = () => staleResponse(request, context) ?? unavailableResponse(request);
  try {
    const response = await next();
    return response.status >= 500 && metOutage() ? away() : response;
  } catch (error) {
    if (metOutage()) return away();
    throw error;
  }
};
