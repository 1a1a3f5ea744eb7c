import dns from "node:dns";
import ipaddr from "ipaddr.js";
import { getConfig } from "../platform/config.server";

/**
 * Which addresses the site may connect to on its own (ADR 068): webhook
 * deliveries, and later import fetches and off-site backups, reach only
 * public addresses, so an administrator's URL (or a DNS answer that changes
 * after it was saved) cannot make the site call its own machine, the cloud's
 * metadata service or the private network behind it.
 *
 * ipaddr.js names each address's range; only "unicast" (everything no RFC
 * reserves) is public. OUTBOUND_ALLOW_PRIVATE=true adds loopback and the
 * private ranges, for tests and private networks; link-local (the metadata
 * service at 169.254.169.254), unspecified, multicast and the rest stay
 * refused either way.
 */

/** The ranges OUTBOUND_ALLOW_PRIVATE=true adds to "unicast". */
const PRIVATE_RANGES = new Set(["loopback", "private", "uniqueLocal", "carrierGradeNat"]);

export type LookupFunction = typeof dns.lookup;

export interface OutboundOptions {
  /** OUTBOUND_ALLOW_PRIVATE (the configuration's when not given). */
  allowPrivate?: boolean;
  /** How host names are resolved (dns.lookup when not given; tests pass their own). */
  lookup?: LookupFunction;
}

export const allowPrivateOf = (options: OutboundOptions) => options.allowPrivate ?? getConfig().outboundAllowPrivate;

/**
 * The address as ipaddr.js reads it, IPv4-mapped IPv6 (::ffff:127.0.0.1)
 * turned into the IPv4 address it carries, or undefined when it is not an
 * address. Brackets of a URL's IPv6 host are taken off.
 */
function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  if (!ipaddr.isValid(bare)) return undefined;
  return ipaddr.process(bare);
}

/** Whether `text` is an IP address (not a host name). */
export const isAddress = (text: string) => parseAddress(text) !== undefined;

/** Why the site may not connect to this address, or undefined when it may. */
export function addressRefusal(text: string, allowPrivate: boolean): string | undefined {
  const address = parseAddress(text);
  if (!address) return `${text} is not an address`;
  const range = address.range();
  if (range === "unicast" || (allowPrivate && PRIVATE_RANGES.has(range))) return undefined;
  return `${address.toString()} is not a public address (${range})`;
}

/** Every address `host` resolves to, by `lookup`. */
export function resolveAll(host: string, lookup: LookupFunction = dns.lookup): Promise<dns.LookupAddress[]> {
  return new Promise((resolve, reject) => {
    lookup(host, { all: true, verbatim: true }, (error, addresses) => {
      if (error) reject(error);
      else resolve(addresses);
    });
  });
}
