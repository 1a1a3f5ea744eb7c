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

  it("answers at once for a long header of colons and digits (bounded before it is parsed)", () => {
    const started = performance.now();
    for (const value of ["1:".repeat(40_000), "1.".repeat(40_000), `${"::".repeat(45)}/48`]) {
      expect(clientNetwork(value)).toBeNull();
    }
    expect(performance.now() - started).toBeLessThan(50);
  });
});
