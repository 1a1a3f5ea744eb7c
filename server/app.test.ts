import http from "node:http";
import type { AddressInfo } from "node:net";
import helmet from "helmet";
import { describe, expect, it } from "vitest";
import { headersSetBy } from "./app";

/** The headers `middleware` sets on a real response whose CSP nonce is `nonce`. */
async function setOnARealResponse(middleware: ReturnType<typeof helmet>, nonce: string) {
  const server = http.createServer((req, res) => {
    Object.assign(res, { locals: { cspNonce: nonce } });
    middleware(req, res, () => res.end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await response.arrayBuffer();
    return [...response.headers].filter(
      ([name]) => !["date", "connection", "keep-alive", "content-length"].includes(name),
    );
  } finally {
    server.close();
  }
}

describe("headersSetBy", () => {
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        scriptSrc: [
          "'self'",
          (_req, res) => `'nonce-${(res as unknown as { locals: { cspNonce: string } }).locals.cspNonce}'`,
        ],
        upgradeInsecureRequests: [],
      },
    },
    strictTransportSecurity: true,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  });
  const headersFor = headersSetBy(securityHeaders);

  it("gives helmet's own headers, each time with the nonce asked for", async () => {
    for (const nonce of ["Zmlyc3Qgbm9uY2U=", "c2Vjb25kIG5vbmNl"]) {
      const flat = headersFor(nonce);
      const pairs: Array<[string, string]> = [];
      for (let i = 0; i < flat.length; i += 2) pairs.push([flat[i]!.toLowerCase(), flat[i + 1]!]);
      expect(pairs.sort()).toEqual((await setOnARealResponse(securityHeaders, nonce)).sort());
      expect(pairs.find(([name]) => name === "content-security-policy")?.[1]).toContain(`'nonce-${nonce}'`);
      expect(pairs.map(([name]) => name)).toContain("strict-transport-security");
    }
  });

  it("does not share one answer's headers with the next", () => {
    const first = headersFor("a");
    first.push("X-Extra", "1");
    expect(headersFor("b")).not.toContain("X-Extra");
  });
});
