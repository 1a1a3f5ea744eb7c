import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { drawCard, escapeMarkup, MAX_CARD_BYTES } from "./draw.server";

/** ADR 073: a card is 1200x630, at most 300 KB, whatever its words or photo. */

const draw = (title: string, label = "Cloud", site = "Ojai Technology Services") =>
  drawCard({ kind: "text", label, title, site, host: "ojai.example" });

async function expectCard(bytes: Buffer) {
  const info = await sharp(bytes).metadata();
  expect({ format: info.format, width: info.width, height: info.height }).toEqual({
    format: "jpeg",
    width: 1200,
    height: 630,
  });
  expect(bytes.length).toBeLessThanOrEqual(MAX_CARD_BYTES);
}

describe("drawCard", () => {
  it("draws a short title, a title too long for the box, and no label", async () => {
    await expectCard(await draw("Hello"));
    await expectCard(await draw("A title that goes on and on ".repeat(20)));
    await expectCard(await draw("No label here", ""));
  });

  it("fits a word longer than a line, in the title and in the company's name", async () => {
    await expectCard(await draw(`Donaudampfschifffahrtsgesellschaft${"x".repeat(40)}`));
    await expectCard(await draw("Short", "Cloud", "W".repeat(60)));
  });

  it("crops a detailed photo to the card's shape within 300 KB", async () => {
    // Noise: the least compressible photo there is.
    const noise = await sharp(Buffer.from(Array.from({ length: 1600 * 1000 * 3 }, () => (Math.random() * 256) | 0)), {
      raw: { width: 1600, height: 1000, channels: 3 },
    })
      .webp({ quality: 100 })
      .toBuffer();
    await expectCard(await drawCard({ kind: "photo", bytes: noise }));
  });
});

describe("escapeMarkup", () => {
  it("makes Pango markup in a title plain text", () => {
    expect(escapeMarkup(`<span size="9000000">x</span> & 'a' "b"`)).toBe(
      "&lt;span size=&quot;9000000&quot;&gt;x&lt;/span&gt; &amp; &#39;a&#39; &quot;b&quot;",
    );
  });
});
