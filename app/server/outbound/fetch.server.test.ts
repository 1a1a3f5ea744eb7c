import type dns from "node:dns";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addressRefusal, checkOutboundUrl, OutboundError, outboundFetch, type LookupFunction } from "./index.server";

/** The outbound address rules and limits (ADR 068), against real HTTP servers on loopback. */

const PUBLIC_ADDRESS = "93.184.215.14";

/** A lookup whose answer the test sets: the DNS answer that changes between save and connect. */
function changingLookup(initial: string) {
  const state = { address: initial };
  const lookup = ((_host: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    const family = state.address.includes(":") ? 6 : 4;
    if (options.all) callback(null, [{ address: state.address, family }]);
    else callback(null, state.address, family);
  }) as unknown as LookupFunction;
  return { state, lookup };
}

let server: http.Server;
let base: string;
const seen: string[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    seen.push(request.url ?? "");
    if (request.url === "/big") {
      response.writeHead(200, { "content-type": "text/plain" });
      // 1 MB, more than the 64 KB read.
      response.end(Buffer.alloc(1024 * 1024, 97));
    } else if (request.url === "/silent") {
      // Never answers: the caller's deadline must end it.
    } else if (request.url === "/redirect") {
      response.writeHead(302, { location: "http://127.0.0.1:1/elsewhere" }).end();
    } else {
      request.resume();
      request.on("end", () => response.writeHead(204).end());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("which addresses are public", () => {
  it.each([
    "127.0.0.1",
    "10.0.0.1",
    "172.16.5.4",
    "192.168.1.1",
    "100.64.0.1",
    "169.254.169.254",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "::1",
    "[::1]",
    "::",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "ff02::1",
    "2002:7f00:1::1",
  ])("%s is refused", (address) => {
    expect(addressRefusal(address, false)).toMatch(/is not a public address/);
  });

  it.each([PUBLIC_ADDRESS, "2606:2800:220:1:248:1893:25c8:1946", "::ffff:93.184.215.14"])(
    "%s is allowed",
    (address) => {
      expect(addressRefusal(address, false)).toBeUndefined();
    },
  );

  it("the override allows loopback and private ranges, never link-local, unspecified or multicast", () => {
    for (const address of ["127.0.0.1", "::1", "10.0.0.1", "192.168.1.1", "fd00::1"]) {
      expect(addressRefusal(address, true)).toBeUndefined();
    }
    for (const address of ["169.254.169.254", "fe80::1", "0.0.0.0", "224.0.0.1"]) {
      expect(addressRefusal(address, true)).toBeDefined();
    }
  });
});

describe("checkOutboundUrl (at save)", () => {
  it.each([
    ["http://127.0.0.1/hook", /https:\/\//],
    ["https://127.0.0.1/hook", /127\.0\.0\.1 is not a public address/],
    ["https://10.0.0.1/hook", /not a public address/],
    ["https://169.254.169.254/latest/meta-data", /not a public address/],
    ["https://[::1]/hook", /not a public address/],
    ["https://[::ffff:7f00:1]/hook", /not a public address/],
    [
      "https://localhost/hook",
      /resolves to 127\.0\.0\.1 is not a public address|resolves to ::1 is not a public address/,
    ],
    ["ftp://example.com/", /https:\/\//],
    ["not a url", /absolute URL/],
    ["https://user:secret@example.com/", /user name or password/],
    [`https://example.com/${"a".repeat(2100)}`, /longer than 2048/],
  ])("%s is refused", async (url, reason) => {
    const check = await checkOutboundUrl(url, { allowPrivate: false });
    expect(check.ok).toBe(false);
    expect(!check.ok && check.reason).toMatch(reason);
  });

  it("a name is refused when any of its addresses is not public", async () => {
    const { lookup } = changingLookup("10.1.2.3");
    const check = await checkOutboundUrl("https://hooks.example.com/x", { allowPrivate: false, lookup });
    expect(!check.ok && check.reason).toMatch(/hooks\.example\.com resolves to 10\.1\.2\.3/);
  });

  it("the override allows http and loopback", async () => {
    expect((await checkOutboundUrl(`${base}/hook`, { allowPrivate: true })).ok).toBe(true);
    expect((await checkOutboundUrl("http://localhost:9/hook", { allowPrivate: true })).ok).toBe(true);
  });
});

describe("outboundFetch (at connect)", () => {
  it("a name that resolved to a public address when saved and to 127.0.0.1 now is refused before connecting", async () => {
    const { state, lookup } = changingLookup(PUBLIC_ADDRESS);
    const port = (server.address() as AddressInfo).port;
    const url = `https://hooks.example.com:${port}/changed`;
    expect(await checkOutboundUrl(url, { allowPrivate: false, lookup })).toMatchObject({ ok: true });
    state.address = "127.0.0.1";
    const before = seen.length;
    const error = await outboundFetch(url, { allowPrivate: false, lookup, method: "POST", body: "{}" }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OutboundError);
    expect((error as OutboundError).kind).toBe("refused");
    expect((error as OutboundError).message).toMatch(/127\.0\.0\.1 is not a public address/);
    // Also over plain http with the name on loopback, without the override: nothing reaches the server.
    const plain = await outboundFetch(`http://hooks.example.com:${port}/changed`, {
      allowPrivate: false,
      lookup,
    }).catch((e: unknown) => e);
    expect((plain as OutboundError).kind).toBe("refused");
    expect(seen.length).toBe(before);
  });

  it("the same name on loopback connects with the override", async () => {
    const { lookup } = changingLookup("127.0.0.1");
    const port = (server.address() as AddressInfo).port;
    const answer = await outboundFetch(`http://hooks.example.com:${port}/ok`, { allowPrivate: true, lookup });
    expect(answer.status).toBe(204);
    expect(seen).toContain("/ok");
  });

  it("an address in the URL is refused without a connection", async () => {
    for (const url of ["https://127.0.0.1/x", "https://[::1]/x", "https://169.254.169.254/x", "https://10.0.0.1/x"]) {
      const error = await outboundFetch(url, { allowPrivate: false }).catch((e: unknown) => e);
      expect((error as OutboundError).kind).toBe("refused");
    }
  });

  it("reads at most 64 KB of the answer", async () => {
    const answer = await outboundFetch(`${base}/big`, { allowPrivate: true });
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBe(64 * 1024);
    expect(answer.truncated).toBe(true);
  });

  it("a receiver that never answers times out", async () => {
    const started = Date.now();
    const error = await outboundFetch(`${base}/silent`, { allowPrivate: true, timeoutMs: 300 }).catch(
      (e: unknown) => e,
    );
    expect((error as OutboundError).kind).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("a redirect is an answer, not followed", async () => {
    const answer = await outboundFetch(`${base}/redirect`, { allowPrivate: true });
    expect(answer.status).toBe(302);
  });

  it("a closed port is a network error", async () => {
    const error = await outboundFetch("http://127.0.0.1:1/", { allowPrivate: true }).catch((e: unknown) => e);
    expect((error as OutboundError).kind).toBe("network");
  });
});
