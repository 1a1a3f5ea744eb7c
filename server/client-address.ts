import type { IncomingMessage } from "node:http";

/**
 * The client's address of a bare request, as Express's `req.ip` gives it
 * (proxy-addr's rule): X-Forwarded-For is read from the right, hop by hop,
 * while the hop that added it is trusted (TRUST_PROXY, compiled by Express as
 * "trust proxy fn"). Cache hits never reach Express, so the analytics' watch
 * (ADR 056), which runs for them too, asks here; the contact form's
 * conversion is hashed from `req.ip`, and the two must agree.
 */
export function clientAddressOf(trust: (address: string, hop: number) => boolean) {
  return (req: IncomingMessage): string => {
    const socketAddress = req.socket.remoteAddress ?? "";
    const raw = req.headers["x-forwarded-for"];
    const header = Array.isArray(raw) ? raw.join(",") : raw;
    if (!header) return socketAddress;
    const hops = [
      socketAddress,
      ...header
        .split(",")
        .map((hop) => hop.trim())
        .reverse(),
    ];
    for (let i = 0; i < hops.length - 1; i++) if (!trust(hops[i]!, i)) return hops[i]!;
    return hops[hops.length - 1]!;
  };
}
