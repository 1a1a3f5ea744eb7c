import type dns from "node:dns";
import http from "node:http";
import https from "node:https";
import {
  addressRefusal,
  allowPrivateOf,
  isAddress,
  resolveAll,
  type LookupFunction,
  type OutboundOptions,
} from "./addresses.server";

/**
 * The site's own outbound HTTP (ADR 068): a URL checked when it is saved
 * (`checkOutboundUrl`, the reason becomes the 400), and every connection
 * checked again as it is made (`outboundFetch`), since a name's DNS answer
 * may change between the two. Node's http and https with a `lookup` of our
 * own: the address is checked after resolution and before the socket
 * connects, on the address actually used, so no second resolution can slip
 * past the check. Redirects are not followed (a 3xx is an answer like any
 * other); the answer is read up to a limit and the whole exchange has a
 * deadline, so a slow or endless receiver costs at most that.
 */

/** The longest URL saved or fetched. */
const MAX_URL_LENGTH = 2048;
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** Whether `text` is a URL the site may send to; resolves its host now (the save-time check). */
export async function checkOutboundUrl(text: string, options: OutboundOptions = {}): Promise<UrlCheck> {
  const allowPrivate = allowPrivateOf(options);
  if (text.length > MAX_URL_LENGTH) return { ok: false, reason: `The URL is longer than ${MAX_URL_LENGTH} characters` };
  const shape = urlShapeRefusal(text, allowPrivate);
  if (typeof shape === "string") return { ok: false, reason: shape };
  const host = shape.hostname;
  if (isAddress(host)) {
    const refusal = addressRefusal(host, allowPrivate);
    return refusal ? { ok: false, reason: `The URL's host ${refusal}` } : { ok: true, url: shape };
  }
  let addresses: dns.LookupAddress[];
  try {
    addresses = await resolveAll(host, options.lookup);
  } catch {
    return { ok: false, reason: `The URL's host ${host} could not be resolved` };
  }
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, allowPrivate);
    if (refusal) return { ok: false, reason: `The URL's host ${host} resolves to ${refusal}` };
  }
  return addresses.length > 0
    ? { ok: true, url: shape }
    : { ok: false, reason: `The URL's host ${host} could not be resolved` };
}

/** The URL, or why it cannot be one the site sends to (scheme, credentials), before any resolution. */
function urlShapeRefusal(text: string, allowPrivate: boolean): URL | string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "Enter an absolute URL, such as https://example.com/hooks";
  }
  const schemes = allowPrivate ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(url.protocol))
    return allowPrivate ? "The URL must start with https:// or http://" : "The URL must start with https://";
  if (url.username || url.password) return "The URL must not carry a user name or password";
  return url;
}

export type OutboundFailure = "refused" | "timeout" | "network";

/** A request that got no HTTP answer: refused by the address rules, out of time, or the network's error. */
export class OutboundError extends Error {
  override name = "OutboundError";
  constructor(
    readonly kind: OutboundFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface OutboundRequest extends OutboundOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The whole exchange's deadline: connecting, sending and reading the answer. */
  timeoutMs?: number;
  /** Bytes of the answer's body read at most; the rest is never read. */
  maxResponseBytes?: number;
  signal?: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  body: Buffer;
  /** Whether the body was longer than maxResponseBytes (and cut there). */
  truncated: boolean;
}

/** A dns.lookup that passes on only the addresses the rules allow; none left is a refusal. */
export function guardedLookup(allowPrivate: boolean, lookup: LookupFunction | undefined): LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    resolveAll(hostname, lookup).then(
      (addresses) => {
        const allowed = addresses.filter(({ address }) => !addressRefusal(address, allowPrivate));
        if (allowed.length === 0) {
          const refusal = addresses[0] ? addressRefusal(addresses[0].address, allowPrivate) : "no address";
          callback(new OutboundError("refused", `${hostname} resolves to ${refusal}`));
        } else if (options.all) callback(null, allowed);
        else callback(null, allowed[0]!.address, allowed[0]!.family);
      },
      (error: unknown) => callback(error),
    );
  }) as unknown as LookupFunction;
}

/**
 * One HTTP request to `url` under the outbound rules: the scheme and, for
 * an address in the URL, the address are checked first; a host name's
 * addresses as it is resolved for the connection. Answers the status and at
 * most `maxResponseBytes` of the body; throws OutboundError without an answer.
 */
export function outboundFetch(url: string, request: OutboundRequest = {}): Promise<OutboundResponse> {
  const allowPrivate = allowPrivateOf(request);
  const target = urlShapeRefusal(url.slice(0, MAX_URL_LENGTH + 1), allowPrivate);
  if (typeof target === "string") return Promise.reject(new OutboundError("refused", target));
  if (isAddress(target.hostname)) {
    const refusal = addressRefusal(target.hostname, allowPrivate);
    if (refusal) return Promise.reject(new OutboundError("refused", refusal));
  }
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = request.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = request.signal ? AbortSignal.any([deadline, request.signal]) : deadline;
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  const client = target.protocol === "https:" ? https : http;

  return new Promise<OutboundResponse>((resolve, reject) => {
    const fail = (error: unknown) => {
      if (deadline.aborted) reject(new OutboundError("timeout", `No answer within ${timeoutMs / 1000} s`));
      else if (error instanceof OutboundError) reject(error);
      else reject(new OutboundError("network", error instanceof Error ? error.message : String(error)));
    };
    const outgoing = client.request(target, {
      method: request.method ?? "GET",
      headers: { ...request.headers, ...(body ? { "content-length": String(body.length) } : {}) },
      // A connection of its own each time: a kept-alive socket would skip the address check.
      agent: false,
      lookup: guardedLookup(allowPrivate, request.lookup),
      signal,
    });
    outgoing.on("error", fail);
    outgoing.on("response", (answer) => {
      const chunks: Buffer[] = [];
      let length = 0;
      let truncated = false;
      const finish = () => resolve({ status: answer.statusCode ?? 0, body: Buffer.concat(chunks), truncated });
      answer.on("data", (chunk: Buffer) => {
        if (truncated) return;
        const room = maxBytes - length;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          length = maxBytes;
          truncated = true;
          // Enough read: the rest is never taken off the socket.
          finish();
          answer.destroy();
          return;
        }
        chunks.push(chunk);
        length += chunk.length;
      });
      answer.on("end", finish);
      answer.on("error", (error) => (truncated ? undefined : fail(error)));
    });
    outgoing.end(body);
  });
}
