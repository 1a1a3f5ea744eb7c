/**
 * Client addresses and the network each is kept as: what
 * app/server/platform/client-network.server.ts answers, and what migration 025
 * (its frozen copy) writes over the rows from before it. One list, so the two
 * cannot drift apart unnoticed.
 */
export const CLIENT_NETWORK_CASES: ReadonlyArray<[stored: string, network: string | null]> = [
  ["203.0.113.9", "203.0.113.0/24"],
  ["203.0.113.255", "203.0.113.0/24"],
  [" 198.51.100.7 ", "198.51.100.0/24"],
  ["127.0.0.1", "127.0.0.0/24"],
  ["0.0.0.0", "0.0.0.0/24"],
  ["::ffff:203.0.113.9", "203.0.113.0/24"],
  ["::FFFF:cb00:7109", "203.0.113.0/24"],
  ["::203.0.113.9", "203.0.113.0/24"],
  ["2001:db8:1:2:3:4:5:6", "2001:db8:1::/48"],
  ["2001:DB8:1::9", "2001:db8:1::/48"],
  ["2001:0db8:0001:ffff::1", "2001:db8:1::/48"],
  ["2001::1", "2001::/48"],
  ["0:db8:0::1", "0:db8::/48"],
  ["::1", "::/48"],
  ["::", "::/48"],
  ["fe80::1%eth0", "fe80::/48"],
  ["64:ff9b::203.0.113.9", "64:ff9b::/48"],
  // Already a network (a backup this version made): kept; a wider one stays as wide.
  ["203.0.113.0/24", "203.0.113.0/24"],
  ["2001:db8:1::/48", "2001:db8:1::/48"],
  ["203.0.113.9/32", "203.0.113.0/24"],
  ["10.1.0.0/16", "10.1.0.0/16"],
  ["2001:db8::/32", "2001:db8::/32"],
  // Not an address: nothing is kept.
  ["unknown", null],
  ["", null],
  ["203.0.113", null],
  ["203.0.113.256", null],
  ["203.000.113.9", null],
  ["0x7f.0.0.1", null],
  ["2130706433", null],
  ["2001:db8::1::2", null],
  ["2001:db8:1:2:3:4:5:6:7", null],
  ["12345:db8::1", null],
  ["203.0.113.0/33", null],
  ["2001:db8::/129", null],
  ["::ffff:203.0.113.0/120", null],
  ["203.0.113.0/", null],
  ["203.0.113.9, 198.51.100.1", null],
  [`${"1".repeat(200)}`, null],
];
