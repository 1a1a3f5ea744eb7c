import { describe, expect, it } from "vitest";
import { DECORATIVE_MARK, imageMarkdown } from "~/lib/markdown-image";
import { renderMarkdown } from "./markdown-pipeline.server";
import { markdownReferences } from "./markdown-references.server";

/**
 * The links and images the check before publishing reads (ADR 057): found
 * by the pipeline's parser, each at its place in the text.
 */

const upload = `/images/${"a".repeat(64)}-640.webp`;

describe("markdownReferences", () => {
  it("finds links, autolinks, images and definitions in order, each spanning its own text", () => {
    const markdown = [
      "Intro [a link](/blog/first) and <https://example.com/blog/second>, www.example.org too.",
      "",
      `![A circle](${upload} "Caption")`,
      "",
      "- a list with [a reference][ref] and ![an image reference][ref]",
      "",
      "[ref]: /blog/third",
    ].join("\n");
    const { references, more } = markdownReferences(markdown, 50);
    expect(more).toBe(false);
    expect(references.map(({ kind, url }) => [kind, url])).toEqual([
      ["link", "/blog/first"],
      ["link", "https://example.com/blog/second"],
      ["link", "http://www.example.org"],
      ["image", upload],
      ["image", ""],
      ["definition", "/blog/third"],
    ]);
    const slices = references.map(({ start, end }) => markdown.slice(start, end));
    expect(slices[0]).toBe("[a link](/blog/first)");
    expect(slices[3]).toBe(`![A circle](${upload} "Caption")`);
    expect(slices[4]).toBe("![an image reference][ref]");
    expect(slices[5]).toBe("[ref]: /blog/third");
    expect(references.every((reference) => !reference.missingAlt)).toBe(true);
  });

  it("counts offsets as a textarea does (UTF-16), after emoji and accents", () => {
    const markdown = "Café 🎉🎉 then ![](/images/x.webp)";
    const [image] = markdownReferences(markdown, 10).references;
    expect(markdown.slice(image!.start, image!.end)).toBe("![](/images/x.webp)");
  });

  it("flags an image with no alt text, but not one marked decorative as the editor writes it", () => {
    const forgotten = "![](/images/one.webp)";
    const blank = '![  ](/images/two.webp "A caption")';
    const decorative = imageMarkdown("/images/three.webp", "ignored", "", { decorative: true });
    const decorativeWithCaption = imageMarkdown("/images/four.webp", "", "Photo: Ana", { decorative: true });
    const handTyped = "![](/images/five.webp)<!--Decorative-->";
    const markdown = [
      forgotten,
      blank,
      decorative,
      decorativeWithCaption,
      handTyped,
      "![][six]",
      "[six]: /images/six.webp",
    ].join("\n\n");
    expect(decorative).toBe(`![](/images/three.webp)${DECORATIVE_MARK}`);
    const flags = markdownReferences(markdown, 10).references.map((reference) => reference.missingAlt);
    expect(flags).toEqual([true, true, false, false, false, true, undefined]);
  });

  it("a mark elsewhere does not excuse an image: only raw HTML right after it does", () => {
    const markdown = `![](/images/one.webp) ${DECORATIVE_MARK}\n\n${DECORATIVE_MARK}\n\n![](/images/two.webp)`;
    expect(markdownReferences(markdown, 10).references.map((reference) => reference.missingAlt)).toEqual([true, true]);
  });

  it("a decorative image renders exactly as an image with empty alt text: the mark never reaches the page", () => {
    expect(renderMarkdown(imageMarkdown("/images/x.webp", "", "", { decorative: true }))).toBe(
      renderMarkdown("![](/images/x.webp)"),
    );
    expect(renderMarkdown(imageMarkdown("/images/x.webp", "", "Photo: Ana", { decorative: true }))).toBe(
      '<figure><img src="/images/x.webp" alt=""><figcaption>Photo: Ana</figcaption></figure>',
    );
  });

  it("reads at most `limit` references and says there were more", () => {
    const markdown = Array.from({ length: 30 }, (_, i) => `[l${i}](/blog/p${i})`).join(" ");
    const { references, more } = markdownReferences(markdown, 25);
    expect(references).toHaveLength(25);
    expect(more).toBe(true);
    expect(markdownReferences(markdown, 30).more).toBe(false);
  });

  it("walks deeply nested markdown without overflowing the stack", () => {
    const markdown = `${"> ".repeat(5_000)}[deep](/blog/deep)`;
    const { references } = markdownReferences(markdown, 10);
    expect(references.map((reference) => reference.url)).toEqual(["/blog/deep"]);
  });
});
