import { describe, expect, it } from "vitest";
import {
  BODY_LIMITS,
  findUnstorableField,
  isStorableText,
  jsonDepth,
  MAX_JSON_DEPTH,
  readBody,
  readFormBody,
  readJsonBody,
} from "./http.server";

/** A request whose body arrives in chunks, with no Content-Length (as a chunked upload does). */
function chunkedRequest(chunks: Array<string | Uint8Array>, headers: Record<string, string> = {}) {
  const encoder = new TextEncoder();
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[pulled++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
    },
  });
  const request = new Request("http://localhost/x", { method: "POST", body, headers, duplex: "half" } as RequestInit);
  return { request, pulled: () => pulled };
}

async function refusal(promise: Promise<unknown>): Promise<{ status: number; error: string; headers: Headers }> {
  try {
    await promise;
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    return {
      status: thrown.status,
      error: ((await thrown.json()) as { error: string }).error,
      headers: thrown.headers,
    };
  }
  throw new Error("expected a refusal");
}

describe("readBody", () => {
  it("stops reading a chunked body as soon as it passes the limit (413, connection closed)", async () => {
    const chunk = new Uint8Array(64 * 1024);
    const { request, pulled } = chunkedRequest(Array.from({ length: 1000 }, () => chunk));
    const { status, headers } = await refusal(readBody(request, 1024 * 1024));
    expect(status).toBe(413);
    expect(headers.get("Connection")).toBe("close");
    // 17 chunks of 64 KiB pass 1 MiB; of the 1000 offered (62.5 MiB) almost none were read.
    expect(pulled()).toBeLessThan(20);
  });

  it("refuses a declared length over the limit before reading anything", async () => {
    const request = new Request("http://localhost/x", {
      method: "POST",
      body: "x".repeat(100),
      headers: { "Content-Length": "100" },
    });
    expect((await refusal(readBody(request, 99))).status).toBe(413);
  });

  it("reads a body at the limit whole", async () => {
    const { request } = chunkedRequest(["a".repeat(600), "b".repeat(424)]);
    expect((await readBody(request, 1024)).length).toBe(1024);
  });
});

describe("text the database accepts", () => {
  it.each([
    ["plain", "hello", true],
    ["emoji (a surrogate pair)", "caf\u00e9 \u{1F600}", true],
    ["NUL", "a\u0000b", false],
    ["a lone high surrogate", "a\ud800b", false],
    ["a lone low surrogate", "\udc00", false],
  ])("%s", (_name, value, storable) => {
    expect(isStorableText(value)).toBe(storable);
  });

  it("names the field, nested or in a list, and checks keys too", () => {
    expect(findUnstorableField({ title: "ok", content: "a\u0000" })).toBe("content");
    expect(findUnstorableField({ socialUrls: { facebook: "\ud800" } })).toBe("socialUrls.facebook");
    expect(findUnstorableField({ tags: ["a", "b\u0000"] })).toBe("tags[1]");
    expect(findUnstorableField({ "bad\u0000key": 1 })).toBe("body");
    expect(findUnstorableField("\u0000")).toBe("body");
    expect(findUnstorableField({ a: [1, true, null, { b: "fine" }] })).toBeUndefined();
  });

  it("readJsonBody answers 400 naming the field", async () => {
    const { request } = chunkedRequest([JSON.stringify({ name: "x", message: "hi\u0000" })]);
    expect(await refusal(readJsonBody(request))).toMatchObject({
      status: 400,
      error: "message contains a character that cannot be stored (a NUL character or an unpaired surrogate)",
    });
  });

  it("a JSON escape of a lone surrogate is refused like the raw character", async () => {
    const { request } = chunkedRequest(['{"title":"\\ud800"}']);
    expect((await refusal(readJsonBody(request))).error).toMatch(/^title contains/);
  });
});

describe("JSON nesting", () => {
  it("measures depth without counting brackets inside strings", () => {
    const bytes = (text: string) => new TextEncoder().encode(text);
    expect(jsonDepth(bytes('{"a":[1,{"b":2}]}'))).toBe(3);
    expect(jsonDepth(bytes('{"a":"[[[[{{{{\\"]]]"}'))).toBe(1);
    expect(jsonDepth(bytes("42"))).toBe(0);
  });

  it("refuses half a million levels before parsing them", async () => {
    const deep = "[".repeat(500_000) + "]".repeat(500_000);
    const { request } = chunkedRequest([deep]);
    expect(await refusal(readJsonBody(request, 2 * 1024 * 1024))).toEqual(
      expect.objectContaining({
        status: 400,
        error: `Request body nests too deeply (${MAX_JSON_DEPTH} levels at most)`,
      }),
    );
  });

  it("accepts what the API's own requests nest", async () => {
    const { request } = chunkedRequest([JSON.stringify({ post: { tags: [["a"]] } })]);
    await expect(readJsonBody(request)).resolves.toEqual({ post: { tags: [["a"]] } });
  });
});

describe("readFormBody", () => {
  const form = (body: string, type = "application/x-www-form-urlencoded") =>
    chunkedRequest([body], { "Content-Type": type }).request;

  it("reads a form post", async () => {
    const fields = await readFormBody(form("email=a%40b.co&password=secret+words"));
    expect(fields.get("email")).toBe("a@b.co");
    expect(fields.get("password")).toBe("secret words");
  });

  it("stops at its limit, chunked or not", async () => {
    const { request, pulled } = chunkedRequest(
      Array.from({ length: 100 }, () => "a".repeat(4096)),
      { "Content-Type": "application/x-www-form-urlencoded" },
    );
    expect((await refusal(readFormBody(request))).status).toBe(413);
    expect(pulled()).toBeLessThanOrEqual(BODY_LIMITS.form / 4096 + 2);
  });

  it("refuses another content type (415) and a NUL in a value (400)", async () => {
    expect((await refusal(readFormBody(form("a=b", "text/plain")))).status).toBe(415);
    expect(await refusal(readFormBody(form("email=a%00")))).toMatchObject({
      status: 400,
      error: expect.stringMatching(/^email contains/),
    });
  });
});
