import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { drawCard } from "./draw.server";

/** ADR 073: the site's own card is 1200x630, under 300 KB, whatever its words. */

const draw = (title: string, label = "Cloud") =>
  drawCard({ kind: "text", label, title, site: "Ojai Technology Services", host: "ojai.example" });

async function expectCard(bytes: Buffer | undefined) {
  expect(bytes).toBeDefined();
  const info = await sharp(bytes).metadata();
  expect({ format: info.format, width: info.width, height: info.height }).toEqual({
    format: "jpeg",
    width: 1200,
    height: 630,
  });
  expect(bytes!.length).toBeLessThanOrEqual(300 * 1024);
}

describe("drawCard", () => {
  it("draws a short title, a title too long for the box, and no label", async () => {
    await expectCard(await draw("Hello"));
    await expectCard(await draw("A title that goes on and on ".repeat(20)));
    await expectCard(await draw("No label here", ""));
  });

  it("sets markup in a title as text: no span, entity or size of its own", async () => {
    const plain = await draw("x".repeat(20));
    const hostile = await draw(`<span size="9000000">x</span> &amp; &bogus; <b>`);
    await expectCard(hostile);
    expect(hostile.equals(plain)).toBe(false);
  });
});
