import { describe, expect, it } from "vitest";
import { convertBody, excerptOf, placeholder, textOf } from "./convert.server";

/**
 * HTML to Markdown for imported posts (ADR 074): what Markdown can say is
 * said (GFM tables, fenced code, captions as image titles); what it cannot
 * is kept as text, never as raw HTML; images are left as placeholders for
 * the importer; WordPress's classic paragraphs and [caption] are read.
 */

describe("convertBody", () => {
  it("writes headings, emphasis, links, lists, tables and code as Markdown", () => {
    const { markdown } = convertBody(
      '<h2>Plan</h2><p>Some <strong>bold</strong> and <em>soft</em> words, a <a href="https://example.com">link</a>.</p>' +
        "<ul><li>one</li><li>two</li></ul><table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>" +
        "<pre><code>let x = 1;</code></pre>",
    );
    expect(markdown).toBe(
      "## Plan\n\nSome **bold** and _soft_ words, a [link](https://example.com).\n\n-   one\n-   two\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n```\nlet x = 1;\n```",
    );
  });

  it("keeps what Markdown cannot say as text, never as raw HTML", () => {
    const { markdown } = convertBody(
      '<div class="wp-block"><span style="color:red">kept</span></div><script>alert(1)</script><style>p{}</style>' +
        "<p>1 &lt; 2 and &lt;script&gt;alert(2)&lt;/script&gt;</p><form><input value=x></form>",
    );
    expect(markdown).toContain("kept");
    expect(markdown).not.toContain("alert(1)");
    expect(markdown).not.toMatch(/(?<!\\)<[a-z/]/i);
    expect(markdown).toContain("1 \\< 2 and \\<script>alert(2)\\</script>");
  });

  it("leaves each distinct image as a placeholder, a figure's caption as its title", () => {
    const { markdown, images } = convertBody(
      '<figure><img src="/a.jpg" alt="A [cat]"><figcaption>Our "cat"</figcaption></figure><p><img src="/b.png" alt="">' +
        '<img src="/a.jpg" alt="again"><img src="data:image/png;base64,xx" alt="inline"></p>',
    );
    expect(images).toEqual(["/a.jpg", "/b.png"]);
    expect(markdown).toContain(`![A [cat\\]](${placeholder(0)} "Our \\"cat\\"")`);
    expect(markdown).toContain(`![](${placeholder(1)})`);
    expect(markdown).toContain(`![again](${placeholder(0)})`);
    expect(markdown).toContain("inline");
    expect(markdown).not.toContain("data:");
  });

  it("reads WordPress's classic paragraphs and [caption], and names other shortcodes", () => {
    const { markdown, images, shortcodes } = convertBody(
      'First line\nsecond line\n\n[caption id="attachment_5" width="300"]<img src="/c.jpg" alt="C" /> The caption[/caption]\n\n[gallery ids="1,2"] [contact-form-7 id="3"]',
    );
    expect(markdown.startsWith("First line  \nsecond line\n\n")).toBe(true);
    expect(markdown).toContain(`![C](${placeholder(0)} "The caption")`);
    expect(images).toEqual(["/c.jpg"]);
    expect(shortcodes).toEqual(["gallery", "contact-form-7"]);
  });

  it("turns an embedded player into a link", () => {
    expect(convertBody('<iframe src="https://www.youtube.com/embed/abc"></iframe>').markdown).toBe(
      "[Embedded media](https://www.youtube.com/embed/abc)",
    );
    expect(convertBody('<iframe src="javascript:alert(1)"></iframe>').markdown).toBe("");
  });

  it("makes links to the old site paths, and names the blocks the old site filled in", () => {
    const { markdown, dynamicBlocks } = convertBody(
      '<!-- wp:paragraph --><p><a href="https://old.example/2019/x/">x</a> <a href="https://other.example/y" title="Y">y</a></p><!-- /wp:paragraph -->' +
        '<!-- wp:latest-posts {"postsToShow":3} /--><!-- wp:archives/--><!-- wp:jetpack/contact-form {"a":1} /-->',
      "https://old.example",
    );
    expect(markdown).toBe('[x](/2019/x/) [y](https://other.example/y "Y")');
    expect(dynamicBlocks).toEqual(["latest-posts", "archives", "jetpack/contact-form"]);
  });
});

describe("textOf and excerptOf", () => {
  it("reads the text of HTML, entities included", () => {
    expect(textOf("<p>Fish &amp; chips&#8217;s</p>\n<p>  more&nbsp;text &bogus;</p>")).toBe(
      "Fish & chips’s more text &bogus;",
    );
  });

  it("cuts at a word with an ellipsis", () => {
    expect(excerptOf("short")).toBe("short");
    expect(excerptOf("word ".repeat(100).trim(), 22)).toBe("word word word word…");
  });
});
