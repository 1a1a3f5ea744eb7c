/**
 * What the server hands every loader, action and middleware (React Router's
 * typed context, `future.v8_middleware`). server/app.ts's getLoadContext
 * builds one per request with `requestContext`; a route reads a value with
 * `context.get(clientAddressContext)`, typed, instead of a field on an
 * untyped object. A domain's own request values (the signed-in
 * administrator) are defined in its domain, beside the middleware that sets
 * them.
 */
import { createContext, RouterContextProvider } from "react-router";

/** The client's address (X-Forwarded-For honoured only from TRUST_PROXY). */
export const clientAddressContext = createContext<string>();

/** Per-request nonce that the Content-Security-Policy allows for inline scripts. */
export const cspNonceContext = createContext<string>();

interface RequestValues {
  clientAddress: string;
  cspNonce: string;
}

/** The context of one request, as server/app.ts builds it before React Router. */
export function requestContext(values: RequestValues): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(clientAddressContext, values.clientAddress);
  context.set(cspNonceContext, values.cspNonce);
  return context;
}
