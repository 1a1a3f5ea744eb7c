/**
 * What the server hands every loader, action and middleware (React Router's
 * typed context, `future.v8_middleware`). server/app.ts's getLoadContext
 * builds one per request with `requestContext`, from the database and
 * configuration the process opened once at start; a route reads a value with
 * `context.get(dbContext)`, typed, instead of a field on an untyped object or
 * a module's singleton (getDb()). A domain's own request values (the signed-in
 * administrator) are defined in its domain, beside the middleware that sets
 * them.
 */
import { createContext, RouterContextProvider } from "react-router";
import type { Connection, Db } from "../db/db.server";
import type { Config } from "./config.server";

/** The process's database connection (its kind, for the few reads that differ by backend). */
export const connectionContext = createContext<Connection>();

/** The process's database, `connectionContext`'s Kysely handle. */
export const dbContext = createContext<Db>();

/** The process's configuration, read once from the environment at start. */
export const configContext = createContext<Config>();

/** The client's address (X-Forwarded-For honoured only from TRUST_PROXY). */
export const clientAddressContext = createContext<string>();

/** Per-request nonce that the Content-Security-Policy allows for inline scripts. */
export const cspNonceContext = createContext<string>();

/** A stored public answer, as the page cache keeps it. */
export interface StaleAnswer {
  status: number;
  headers: Array<[string, string]>;
  body: Buffer;
}

/**
 * The page cache's answer for a URL (path and query) while the database is
 * away, whatever version it was rendered at (ADR 075): what a render that
 * met the outage gives way to. Nothing without a page cache.
 */
export const staleAnswerContext = createContext<(url: string, metOutage?: boolean) => StaleAnswer | undefined>(
  () => undefined,
);

interface RequestValues {
  connection: Connection;
  config: Config;
  clientAddress: string;
  cspNonce: string;
  staleAnswer?: (url: string, metOutage?: boolean) => StaleAnswer | undefined;
}

/** The context of one request, as server/app.ts builds it before React Router. */
export function requestContext(values: RequestValues): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(connectionContext, values.connection);
  context.set(dbContext, values.connection.db);
  context.set(configContext, values.config);
  context.set(clientAddressContext, values.clientAddress);
  context.set(cspNonceContext, values.cspNonce);
  if (values.staleAnswer) context.set(staleAnswerContext, values.staleAnswer);
  return context;
}
