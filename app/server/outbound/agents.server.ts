import http from "node:http";
import https from "node:https";
import { addressRefusal, allowPrivateOf, isAddress, type OutboundOptions } from "./addresses.server";
import { guardedLookup, OutboundError } from "./fetch.server";

/**
 * Connections for a client library that makes its own requests (the S3
 * client of off-site backups, ADR 076) under the outbound rules (ADR 068):
 * Node's http and https agents with the guarded `lookup`, so each new
 * connection's addresses are checked as it is made, and no kept-alive
 * socket outlives the check. The client is given them instead of its own.
 */
export function outboundAgents(options: OutboundOptions = {}): { httpAgent: http.Agent; httpsAgent: https.Agent } {
  const allowPrivate = allowPrivateOf(options);
  const lookup = guardedLookup(allowPrivate, options.lookup);
  return {
    httpAgent: new http.Agent({ keepAlive: false, lookup }),
    httpsAgent: new https.Agent({ keepAlive: false, lookup }),
  };
}

/**
 * Throws OutboundError("refused") when `endpoint` may not be reached: its
 * scheme (http only with OUTBOUND_ALLOW_PRIVATE=true), or an address written
 * in it (a connection to an address makes no lookup, so the agents' check
 * never sees it).
 */
export function checkOutboundEndpoint(endpoint: string, options: OutboundOptions = {}): void {
  const allowPrivate = allowPrivateOf(options);
  const url = new URL(endpoint);
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:"))
    throw new OutboundError("refused", "only https:// endpoints are allowed (OUTBOUND_ALLOW_PRIVATE is off)");
  if (isAddress(url.hostname)) {
    const refusal = addressRefusal(url.hostname, allowPrivate);
    if (refusal) throw new OutboundError("refused", refusal);
  }
}
