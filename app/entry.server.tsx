import { type EntryContext, isRouteErrorResponse, type RouterContextProvider, ServerRouter } from "react-router";
import { isIslandsPage } from "./islands/page";
import { NonceProvider } from "./lib/nonce";
import { redactSecretPath } from "./lib/secret-paths";
import { cspNonceContext } from "./server/platform/context.server";
import { getLogger } from "./server/platform/logger.server";
import { renderStatic, renderWhole } from "./server/platform/render-whole.server";

export const streamTimeout = 5_000;

/**
 * Errors of loaders, actions and rendering go to the JSON log, one line each
 * with its stack, not to stderr: a stranger's odd request (a method a page
 * has no action for) must not flood the console. Aborted requests are not
 * errors of ours.
 */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  const req = { method: request.method, url: redactSecretPath(new URL(request.url).pathname) };
  // A refusal (405 for a method a page has no action for, ...) is the access log's warning already.
  if (isRouteErrorResponse(error) && error.status < 500) getLogger().debug({ err: error, req }, "request refused");
  else getLogger().error({ err: error, req }, "request error");
}

/** Whether the page hydrates as islands, without React Router's client (ADR 018). */
function hydratesAsIslands(context: EntryContext): boolean {
  return isIslandsPage(
    context.staticHandlerContext.matches.map((match) => context.routeModules[match.route.id]?.handle),
  );
}

/**
 * Every page is rendered completely before the first byte is sent
 * (onAllReady): visitors, crawlers and link previews all get the whole
 * article in the HTML, and the response can be cached as one piece. Pages
 * have no Suspense boundary: React would send a large one after the page,
 * hidden, with inline scripts that a public page could not run (no nonce).
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  // Public pages carry no nonce, so their HTML is the same for every visitor
  // and is compressed once by the page cache (ADR 024). They wait for
  // nothing and stream nothing to a client router, so they are rendered as
  // one string (ADR 045).
  const islands = hydratesAsIslands(routerContext);
  const nonce = islands ? undefined : loadContext.get(cspNonceContext);
  const onError = (error: unknown) =>
    getLogger().error({ err: error, req: { url: redactSecretPath(new URL(request.url).pathname) } }, "render error");
  const page = (
    <NonceProvider value={nonce}>
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
    </NonceProvider>
  );
  const { html, failed } = islands
    ? renderStatic(page, { onError })
    : await renderWhole(page, { nonce, deadlineMs: streamTimeout + 1000, onError });
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(html, {
    headers: responseHeaders,
    status: failed ? 500 : responseStatusCode,
  });
}
