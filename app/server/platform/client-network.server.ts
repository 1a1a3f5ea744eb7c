import ipaddr from "ipaddr.js";

/**
 * The network a client address belongs to, which is what the site keeps of a
 * visitor's address (sessions, the audit log): an IPv4 address as its /24
 * (203.0.113.9 -> 203.0.113.0/24), an IPv6 address as its /48 (a site's
 * block, several subscribers wide: 2001:db8:1:2::9 -> 2001:db8:1::/48), an
 * IPv4-mapped IPv6 address (::ffff:203.0.113.9, what a dual-stack socket
 * reports) as IPv4. Enough to tell "my office" from "another country" on the
 * Account and Audit screens, not enough to name one visitor.
 *
 * A network in this form is given back as it is (a restore of a backup this
 * version made), and a wider one stays as wide (a prefix is never made
 * longer). Anything else (the "unknown" a request without a socket address
 * gets, a proxy's odd header, an IPv4 address in a form other than four
 * decimal parts) is null: stored as not known. Migration 025 holds a frozen
 * copy of this rule for the rows written before it.
 */

const IPV4_NETWORK_BITS = 24;
const IPV6_NETWORK_BITS = 48;

/** Longer than any address or network in text (45 characters, a zone and a prefix): not one. */
const INPUT_MAX = 100;

export function clientNetwork(value: string | null | undefined): string | null {
  if (typeof value !== "string") return null;
  const text = value.trim();
  if (text === "" || text.length > INPUT_MAX) return null;
  const slash = text.lastIndexOf("/");
  const address = slash === -1 ? text : text.slice(0, slash);
  let prefix: number | undefined;
  if (slash !== -1) {
    const digits = text.slice(slash + 1);
    if (!/^\d{1,3}$/.test(digits)) return null;
    prefix = Number(digits);
  }
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) return ipv4Network(ipaddr.IPv4.parse(address).octets, prefix);
  if (!ipaddr.IPv6.isValid(address)) return null;
  const ipv6 = ipaddr.IPv6.parse(address);
  if (ipv6.isIPv4MappedAddress()) {
    // A mapped network (::ffff:203.0.113.0/120) is nothing this site writes.
    return prefix === undefined ? ipv4Network(ipv6.toIPv4Address().octets, undefined) : null;
  }
  return ipv6Network(ipv6.parts, prefix);
}

function ipv4Network(octets: number[], prefix: number | undefined): string | null {
  if (prefix !== undefined && prefix > 32) return null;
  const bits = Math.min(prefix ?? 32, IPV4_NETWORK_BITS);
  const masked = octets.map((octet, i) => octet & byteMask(bits - i * 8));
  return `${masked.join(".")}/${bits}`;
}

function ipv6Network(parts: number[], prefix: number | undefined): string | null {
  if (prefix !== undefined && prefix > 128) return null;
  const bits = Math.min(prefix ?? 128, IPV6_NETWORK_BITS);
  const masked = parts.map((part, i) => part & groupMask(bits - i * 16));
  return `${new ipaddr.IPv6(masked).toRFC5952String()}/${bits}`;
}

/** The mask of one 8-bit octet that keeps its first `bits` bits (none below 0, all above 8). */
const byteMask = (bits: number) => (bits <= 0 ? 0 : bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff);
/** The same for one 16-bit IPv6 group. */
const groupMask = (bits: number) => (bits <= 0 ? 0 : bits >= 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff);
