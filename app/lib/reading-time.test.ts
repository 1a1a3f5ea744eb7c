import { describe, expect, it } from "vitest";
import { readingMinutes, readTimeText } from "./reading-time";

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");

describe("readingMinutes", () => {
  it("reads prose at about 230 words a minute, at least one minute", () => {
    expect(readingMinutes("")).toBe(1);
    expect(readingMinutes(words(100))).toBe(1);
    expect(readingMinutes(words(1150))).toBe(5);
    expect(readingMinutes(words(2300))).toBe(10);
  });

  it("counts code twice, images as 12 seconds, and no link targets or image addresses as words", () => {
    const code = "```ts\n" + words(575) + "\n```\n";
    expect(readingMinutes(words(575) + "\n\n" + code)).toBe(8); // 575 + 1150 words
    const pictures = Array.from({ length: 10 }, (_, i) => `![a picture](/images/${"a".repeat(64)}-${i}.webp "Cap")`);
    expect(readingMinutes(words(690) + "\n\n" + pictures.join("\n\n"))).toBe(5); // 3 min + 2 min
    const links = Array.from({ length: 460 }, () => "[x](https://example.org/a/very/long/path/with/many/words)");
    expect(readingMinutes(links.join(" "))).toBe(2);
  });

  it("ends an unclosed fence with the text, and takes a fence closed by a longer one", () => {
    expect(readingMinutes("```\n" + words(1150))).toBe(10);
    expect(readingMinutes("````\n" + words(230) + "\n`````\n" + words(230))).toBe(3);
  });

  it("says it as the site's default does", () => {
    expect(readTimeText(5)).toBe("5 min read");
  });
});
