import { describe, expect, it } from "vitest";
import { CLIENT_NETWORK_CASES } from "../../../tests/support/client-networks";
import { clientNetwork } from "./client-network.server";

describe("a client's network", () => {
  it.each(CLIENT_NETWORK_CASES)("of %j is %j", (stored, network) => {
    expect(clientNetwork(stored)).toBe(network);
  });

  it("is nothing for nothing, and the same when asked again", () => {
    expect(clientNetwork(null)).toBeNull();
    expect(clientNetwork(undefined)).toBeNull();
    for (const [stored] of CLIENT_NETWORK_CASES) {
      const once = clientNetwork(stored);
      expect(clientNetwork(once)).toBe(once);
    }
  });

  it("is nothing for a value longer than any address, before it is parsed (a long zone would parse)", () => {
    expect(clientNetwork(`fe80::1%${"a".repeat(40)}`)).toBe("fe80::/48");
    expect(clientNetwork(`fe80::1%${"a".repeat(200)}`)).toBeNull();
    expect(clientNetwork("1:".repeat(40_000))).toBeNull();
  });
});
