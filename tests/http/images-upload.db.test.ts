import zlib, { deflateSync } from "node:zlib";
import { resolveDatabase } from "~/server/platform/config.server";
import { connect } from "~/server/db/db.server";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, startServer, type TestServer } from "../support/server";

let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  server = await startServer();
  admin = new ApiClient(server.url);
  await admin.signIn();
});
afterAll(() => server?.stop());

async function upload(
  file: Uint8Array | string | null,
  { name = "photo.png", type = "image/png", field = "image", cookie = admin.cookie } = {},
) {
  const form = new FormData();
  form.append("note", "hello");
  if (file !== null)
    form.append(field, new Blob([typeof file === "string" ? file : new Uint8Array(file)], { type }), name);
  const response = await fetch(`${server.url}/api/admin/upload`, {
    method: "POST",
    body: form,
    headers: cookie ? { Cookie: cookie } : {},
  });
  const text = await response.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json };
}

/** A photo-like image with EXIF (camera, GPS-ish comment) and an orientation tag. */
async function photo(width: number, height: number, format: "jpeg" | "png" | "webp" | "gif" | "avif" = "jpeg") {
  const base = sharp({
    create: { width, height, channels: 3, background: { r: 40, g: 120, b: 70 } },
  }).composite([
    {
      input: Buffer.from(
        `<svg width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="#e0c060"/></svg>`,
      ),
    },
  ]);
  const withExif = base.withExif({
    IFD0: { Make: "SecretCam", Model: "Spy 3000", ImageDescription: "home address 12 Elm Street" },
  });
  return withExif.toFormat(format, format === "avif" ? { effort: 0 } : {}).toBuffer();
}

function pngChunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** A valid 1-bit PNG of width x height zero pixels: a few KB that decode to width*height pixels. */
function pngBomb(width: number, height: number) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const raw = Buffer.alloc((1 + Math.ceil(width / 8)) * height); // filter byte 0 + zero pixels per row
  return Buffer.concat([
    Buffer.from("\x89PNG\r\n\x1a\n", "latin1"),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(raw, { level: 9 })),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

describe("POST /api/admin/upload", () => {
  it("answers 401 without a session, before reading the file", async () => {
    const { status, json } = await upload(await photo(64, 64), { cookie: "" });
    expect(status).toBe(401);
    expect(json).toEqual({ error: "Authentication required" });
  });

  it("answers 201 with a content-addressed URL; the variants are WebP at the standard widths, metadata stripped", async () => {
    const input = await photo(2400, 1200);
    expect((await sharp(input).metadata()).exif).toBeDefined();
    const { status, json } = await upload(input, { name: "holiday.jpg", type: "image/jpeg" });
    expect(status).toBe(201);
    expect(json.url).toMatch(/^\/images\/[0-9a-f]{64}-1600\.webp$/);
    // The stored copy is at most MAX_STORED_SIDE (2048) on its longer side (ADR 032).
    expect(json.width).toBe(2048);
    expect(json.height).toBe(1024);
    expect(json.variants.map((v: { width: number }) => v.width)).toEqual([320, 640, 960, 1280, 1600]);

    for (const variant of json.variants as Array<{ width: number; height: number; url: string }>) {
      const response = await fetch(server.url + variant.url);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/webp");
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      const bytes = Buffer.from(await response.arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect(meta.format).toBe("webp");
      expect(meta.width).toBe(variant.width);
      expect(meta.height).toBe(variant.width / 2);
      expect(meta.exif).toBeUndefined();
      expect(bytes.includes(Buffer.from("SecretCam"))).toBe(false);
    }

    // The stored original keeps its format but none of its metadata.
    const { db } = connect(resolveDatabase(server.databaseUrl, process.cwd()));
    try {
      const id = json.url.slice("/images/".length, "/images/".length + 64);
      const row = await db
        .selectFrom("images")
        .select(["source_format", "width", "bytes"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      const bytes = Buffer.from(row.bytes);
      expect(row.source_format).toBe("jpeg");
      expect(row.width).toBe(2048);
      const meta = await sharp(bytes).metadata();
      expect(meta.format).toBe("jpeg");
      expect(meta.exif).toBeUndefined();
      expect(bytes.includes(Buffer.from("SecretCam"))).toBe(false);
    } finally {
      await db.destroy();
    }
  });

  it.each(["jpeg", "png", "webp", "gif", "avif"] as const)(
    "accepts a real %s image (checked by content)",
    async (format) => {
      const { status, json } = await upload(await photo(500, 300, format), {
        name: `x.${format}`,
        type: `image/${format}`,
      });
      expect(status).toBe(201);
      // Never wider than the original: 320 and the image's own 500.
      expect(json.variants.map((v: { width: number }) => v.width)).toEqual([320, 500]);
      expect(json.url).toMatch(/-500\.webp$/);
    },
  );

  it("judges by content, not by name or declared type: a JPEG named .gif with no type is accepted", async () => {
    const { status } = await upload(await photo(100, 80), { name: "misnamed.gif", type: "" });
    expect(status).toBe(201);
  });

  it("stores the same bytes once and answers the same URL", async () => {
    const input = await photo(700, 400, "png");
    const first = await upload(input);
    const second = await upload(input);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.json.url).toBe(first.json.url);
  });

  it.each([
    [
      "a text file named .png with type image/png",
      Buffer.from("this is not an image, only words\n".repeat(20)),
      "notes.png",
      "image/png",
    ],
    [
      "an SVG (scripts can hide in it)",
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      "logo.svg",
      "image/svg+xml",
    ],
    [
      "an HTML page named .jpg",
      Buffer.from("<!doctype html><script>alert(1)</script>".padEnd(200)),
      "x.jpg",
      "image/jpeg",
    ],
    ["a PDF", Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\n".padEnd(200)), "doc.png", "image/png"],
  ])("answers 415 for %s", async (_label, bytes, name, type) => {
    const { status, json } = await upload(bytes, { name, type });
    expect(status).toBe(415);
    expect(json.error).toBe("The file is not a JPEG, PNG, WebP, GIF or AVIF image");
  });

  it("answers 415 for a damaged image whose header looks right", async () => {
    const good = await photo(400, 300, "png");
    const damaged = Buffer.concat([good.subarray(0, 60), Buffer.alloc(500, 7)]);
    const { status, json } = await upload(damaged);
    expect(status).toBe(415);
    expect(json.error).toMatch(/could not be read|not a JPEG/);
  });

  it("answers 413 for an image with too many pixels (a decompression bomb), without decoding it", async () => {
    const bomb = pngBomb(20_000, 20_000); // 400 megapixels in a few hundred KB
    expect(bomb.byteLength).toBeLessThan(1024 * 1024);
    const started = Date.now();
    const { status, json } = await upload(bomb, { name: "bomb.png" });
    expect(status).toBe(413);
    expect(json.error).toMatch(/20000 x 20000 pixels; at most 50 megapixels/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("answers 413 for an image longer than 12000 pixels on one side", async () => {
    const { status } = await upload(pngBomb(100, 15_000), { name: "tall.png" });
    expect(status).toBe(413);
  });

  it("takes a 48-megapixel phone photo: stored at most 2048 pixels a side, turned as its EXIF orientation says", async () => {
    // Portrait photo as phones write it: landscape pixels and orientation 6 (turn 90 degrees clockwise).
    const input = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: "#3a6" } })
      .jpeg({ quality: 80 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect((await sharp(input).metadata()).orientation).toBe(6);
    const { status, json } = await upload(input, { name: "portrait.jpg", type: "image/jpeg" });
    expect(status).toBe(201);
    expect([json.width, json.height]).toEqual([1536, 2048]);
    expect(json.variants.map((v: { width: number }) => v.width)).toEqual([320, 640, 960, 1280, 1536]);
    const widest = Buffer.from(await (await fetch(server.url + json.url)).arrayBuffer());
    const meta = await sharp(widest).metadata();
    expect([meta.width, meta.height, meta.orientation]).toEqual([1536, 2048, undefined]);
  });

  it("answers 413 naming the lower limit of an image its decoder holds whole (a progressive JPEG)", async () => {
    const input = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: "#3a6" } })
      .jpeg({ progressive: true })
      .toBuffer();
    const { status, json } = await upload(input, { name: "progressive.jpg", type: "image/jpeg" });
    expect(status).toBe(413);
    expect(json.error).toBe(
      "The image is 4000 x 3000 pixels; at most 11.1 megapixels and 12000 pixels per side are accepted " +
        "for a progressive JPEG (a baseline JPEG may have 50)",
    );
  });

  it("stores a GIF's copy as PNG and an AVIF's as WebP (their own encoders hold far more memory)", async () => {
    const { db } = connect(resolveDatabase(server.databaseUrl, process.cwd()));
    try {
      for (const [format, contentType] of [
        ["gif", "image/png"],
        ["avif", "image/webp"],
      ] as const) {
        const { status, json } = await upload(await photo(420, 260, format), { name: `x.${format}` });
        expect(status).toBe(201);
        const id = json.url.slice("/images/".length, "/images/".length + 64);
        const row = await db
          .selectFrom("images")
          .select(["source_format", "content_type", "bytes"])
          .where("id", "=", id)
          .executeTakeFirstOrThrow();
        expect([row.source_format, row.content_type]).toEqual([format, contentType]);
        expect((await sharp(Buffer.from(row.bytes)).metadata()).format).toBe(contentType.slice("image/".length));
      }
    } finally {
      await db.destroy();
    }
  });

  it("processes one image at a time: a burst of uploads gets 201s and clean 503s with Retry-After, never a 500", async () => {
    const photos = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        sharp({
          create: {
            width: 1800,
            height: 1200,
            channels: 3,
            background: { r: 20 + i, g: 90, b: 60 },
            noise: { type: "gaussian", mean: 120, sigma: 20 },
          },
        })
          .jpeg({ quality: 70 })
          .toBuffer(),
      ),
    );
    const answers = await Promise.all(photos.map((input) => upload(input, { name: "burst.jpg", type: "image/jpeg" })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.every((status) => status === 201 || status === 503)).toBe(true);
    // Two are admitted (one processed, one waiting); the others arrive while they are.
    expect(statuses.filter((status) => status === 201).length).toBeGreaterThanOrEqual(2);
    expect(statuses.filter((status) => status === 503).length).toBeGreaterThanOrEqual(1);
    for (const busy of answers.filter((a) => a.status === 503)) {
      expect(busy.json).toEqual({
        error: "The server is busy processing other images: try again in a few seconds",
      });
      expect(busy.headers.get("retry-after")).toBe("5");
    }
    // Every place was given back: the refused ones go through now.
    for (const [i, answer] of answers.entries()) {
      if (answer.status === 503) {
        expect((await upload(photos[i]!, { name: "again.jpg", type: "image/jpeg" })).status).toBe(201);
      }
    }
  });

  it("answers 413 for a file over 10 MiB (10,485,760 bytes)", async () => {
    const input = Buffer.alloc(10 * 1024 * 1024 + 1, 0x41);
    input.set(await photo(50, 50, "png")); // starts like a real PNG
    const { status, json, headers } = await upload(input);
    expect(status).toBe(413);
    expect(json.error).toMatch(/too large/);
    expect(headers.get("connection")).toBe("close");
  });

  it("accepts a file of exactly 10 MiB as far as size goes (then judges its content)", async () => {
    const { status } = await upload(Buffer.alloc(10 * 1024 * 1024, 0x41), { name: "big.png" });
    expect(status).toBe(415);
  });

  it("answers 413 before reading a declared body far over the limit", async () => {
    const outcome = await upload(Buffer.alloc(12 * 1024 * 1024, 1)).then(
      (r) => r.status,
      (error: Error & { cause?: { code?: string } }) => error.cause?.code,
    );
    expect([413, "ECONNRESET", "EPIPE"]).toContain(outcome);
  });

  it("answers 400 when there is no file", async () => {
    const { status, json } = await upload(null);
    expect(status).toBe(400);
    expect(json.error).toMatch(/No file/);
  });

  it("answers 400 for a file under another field name, an empty file, and a body that is not multipart", async () => {
    expect((await upload(await photo(40, 40), { field: "picture" })).status).toBe(400);
    const empty = await upload(Buffer.alloc(0));
    expect(empty.status).toBe(400);
    expect(empty.json.error).toBe("The file is empty");
    const json = await admin.post("/api/admin/upload", { image: "data:image/png;base64,AAAA" });
    expect(json.status).toBe(400);
    expect(json.json.error).toMatch(/multipart\/form-data/);
  });

  it("refuses a cross-origin upload with 403", async () => {
    const form = new FormData();
    form.append("image", new Blob([await photo(30, 30)]), "x.jpg");
    const response = await fetch(`${server.url}/api/admin/upload`, {
      method: "POST",
      body: form,
      headers: { Cookie: admin.cookie, Origin: "https://evil.example" },
    });
    expect(response.status).toBe(403);
  });
});

describe("GET /images/{file}", () => {
  it("answers 304 to a matching If-None-Match, 404 for unknown or malformed names", async () => {
    const { json } = await upload(await photo(330, 200, "webp"));
    const first = await fetch(server.url + json.url);
    const etag = first.headers.get("etag")!;
    expect(etag).toBeTruthy();
    const again = await fetch(server.url + json.url, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect((await fetch(`${server.url}/images/${"0".repeat(64)}-320.webp`)).status).toBe(404);
    expect((await fetch(server.url + json.url.replace("-330.webp", "-640.webp"))).status).toBe(404);
    expect((await fetch(`${server.url}/images/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
    expect((await fetch(`${server.url}/images/abc.webp`)).status).toBe(404);
  });
});

describe("POST /api/admin/preview", () => {
  it("renders markdown through the public pipeline, sanitised", async () => {
    const { status, json } = await admin.post("/api/admin/preview", {
      content: "# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<script>alert(1)</script> [x](javascript:alert(1))",
    });
    expect(status).toBe(200);
    expect(json.html).toContain("<h2>Title</h2>"); // the page title is the only h1 (ADR 010)
    expect(json.html).toContain("<table>");
    expect(json.html).not.toMatch(/<script|javascript:/);
  });

  it("answers 401 without a session and 400 without content", async () => {
    expect((await new ApiClient(server.url).post("/api/admin/preview", { content: "x" })).status).toBe(401);
    expect((await admin.post("/api/admin/preview", { text: "x" })).status).toBe(400);
  });
});
