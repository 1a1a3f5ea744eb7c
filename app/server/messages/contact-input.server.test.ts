import { describe, expect, it } from "vitest";
import { isLinksOnly, parseContactInput } from "./contact-input.server";

const valid = { name: "Ada", email: "ada@example.com", preferredContact: "email", service: "systems", message: "Hi" };

describe("contact input", () => {
  it("accepts a full message and trims it; phone is optional", () => {
    const result = parseContactInput({ ...valid, name: "  Ada  " });
    expect(result).toMatchObject({ ok: true, honeypot: false, tooFast: false, value: { name: "Ada", phone: null } });
  });

  it.each(["name", "email", "message"])("missing or blank %s gives the required-fields message", (field) => {
    expect(parseContactInput({ ...valid, [field]: "  " })).toEqual({
      ok: false,
      message: "Error: Please fill in all required fields.",
    });
    const { [field]: _omitted, ...rest } = valid as Record<string, string>;
    expect(parseContactInput(rest)).toEqual({ ok: false, message: "Error: Please fill in all required fields." });
  });

  it("refuses a bad e-mail and unknown options with clear messages", () => {
    expect(parseContactInput({ ...valid, email: "not-an-address" })).toEqual({
      ok: false,
      message: "Error: Please enter a valid email address.",
    });
    expect(parseContactInput({ ...valid, preferredContact: "pigeon" })).toMatchObject({
      ok: false,
      message: expect.stringContaining("preferredContact"),
    });
    expect(parseContactInput({ ...valid, service: "catering" })).toMatchObject({
      ok: false,
      message: expect.stringContaining("service"),
    });
    expect(parseContactInput("just text")).toMatchObject({ ok: false });
  });

  it("defaults the options to Phone and For Media", () => {
    const { preferredContact: _p, service: _s, ...rest } = valid;
    expect(parseContactInput(rest)).toMatchObject({ ok: true, value: { preferredContact: "phone", service: "media" } });
  });

  it("flags the honeypot and a form sent too fast", () => {
    expect(parseContactInput({ ...valid, website: "http://spam.example" })).toMatchObject({ ok: true, honeypot: true });
    expect(parseContactInput({ ...valid, website: "" })).toMatchObject({ ok: true, honeypot: false });
    expect(parseContactInput({ ...valid, elapsedMs: 800 })).toMatchObject({ ok: true, tooFast: true });
    expect(parseContactInput({ ...valid, elapsedMs: 5000 })).toMatchObject({ ok: true, tooFast: false });
  });
});

describe("isLinksOnly", () => {
  it.each([
    ["https://cheap.example/pills", true],
    ["buy now www.cheap.example http://x.example", true],
    ["see https://x.example now", true],
    ["Our site https://shop.example is slow", false],
    ["Our current site is https://shop.example and it is slow.", false],
    ["No link here at all", false],
    ["", false],
  ])("%j → %s", (message, expected) => {
    expect(isLinksOnly(message)).toBe(expected);
  });
});
