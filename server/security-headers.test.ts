import http from "node:http";
import type { AddressInfo } from "node:net";
import helmet from "helmet";
import { describe, expect, it } from "vitest";
import { securityHeadersFrom } from "./security-headers";

type Middleware = (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => void;

/** The headers `middleware` sets on a real answer whose CSP nonce is `nonce`, as a client receives them. */
async function received(middleware: Middleware | ReturnType<typeof helmet>, nonce: string) {
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

describe("securityHeadersFrom", () => {
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
  const setSecurityHeaders = securityHeadersFrom(securityHeaders);

  it("sets helmet's own headers, each answer with its own nonce", async () => {
    for (const nonce of ["Zmlyc3Qgbm9uY2U=", "c2Vjb25kIG5vbmNl"]) {
      const pairs = await received(setSecurityHeaders, nonce);
      expect(pairs.sort()).toEqual((await received(securityHeaders, nonce)).sort());
      expect(pairs.find(([name]) => name === "content-security-policy")?.[1]).toContain(`'nonce-${nonce}'`);
      expect(pairs.map(([name]) => name)).toContain("strict-transport-security");
    }
  });
});
