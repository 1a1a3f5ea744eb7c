import { describe, expect, it } from "vitest";
import { loadOnce } from "./load-once";

describe("loadOnce", () => {
  it("loads once for calls made while it loads and after", async () => {
    let loads = 0;
    const load = loadOnce(() => {
      loads += 1;
      return Promise.resolve({ loads });
    });
    const [first, second] = await Promise.all([load(), load()]);
    expect(first).toBe(second);
    expect(await load()).toBe(first);
    expect(loads).toBe(1);
  });

  it("tries again after a failed load, and keeps the load that worked", async () => {
    let loads = 0;
    const load = loadOnce(() => {
      loads += 1;
      return loads === 1 ? Promise.reject(new Error("the module's file was missing")) : Promise.resolve("loaded");
    });
    await expect(load()).rejects.toThrow("the module's file was missing");
    expect(await load()).toBe("loaded");
    expect(await load()).toBe("loaded");
    expect(loads).toBe(2);
  });
});
