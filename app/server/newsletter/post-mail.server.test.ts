import type { Element, Root } from "hast";
import rehypeParse from "rehype-parse";
import { unified } from "unified";
import { visit } from "unist-util-visit";
import { describe, expect, it } from "vitest";
import { renderPostMail, type PostMailInput } from "./post-mail.server";

const SITE = "https://example.com";
const UPLOAD = `/images/${"ab".repeat(32)}-1600.webp`;
const UNSUBSCRIBE = `${SITE}/newsletter/unsubscribe/tok-123?a=1&b=2`;

const BODY = [
  "# A heading",
  "",
  "A paragraph with [another post](/blog/other-post), [a relative one](elsewhere),",
  "[an outside link](https://example.org/page?a=1&b=2) and [mail](mailto:hello@example.com).",
  "",
  "- one",
  "- two",
  "",
  '![A desk](/images/x.jpg "The office in Ojai")',
  "",
  `![Uploaded](${UPLOAD} "An uploaded photo")`,
  "",
  "![Outside](https://cdn.example.org/pic.png)",
  "",
  "```js",
  "const a = 1 < 2;",
  "```",
  "",
  "> Quoted words.",
  "",
  "<script>alert(1)</script> <img src=x onerror=alert(1)>",
  "",
  "A note[^1].",
  "",
  "[^1]: The note.",
].join("\n");

function input(overrides: Partial<PostMailInput["post"]> = {}, site = SITE): PostMailInput {
  return {
    post: {
      title: "Tea and biscuits",
      slug: "tea-and-biscuits",
      excerpt: "What we learned.",
      body: BODY,
      publishDate: "2026-11-20T09:00:00.000Z",
      author: "Ada Lovelace",
      headerImage: UPLOAD,
      headerImageAlt: "A header photo",
      ...overrides,
    },
    site: { name: "Ojai Technology Services", url: site },
    unsubscribeUrl: UNSUBSCRIBE,
  };
}

function parse(html: string): Root {
  return unified().use(rehypeParse).parse(html);
}

function elements(html: string, tagName: string): Element[] {
  const found: Element[] = [];
  visit(parse(html), "element", (node: Element) => {
    if (node.tagName === tagName) found.push(node);
  });
  return found;
}

function textOf(node: Element): string {
  let text = "";
  visit(node, "text", (child: { value: string }) => {
    text += child.value;
  });
  return text;
}

describe("renderPostMail", () => {
  it("gives every image an absolute src and a width of at most 600, and nothing the page adds", async () => {
    const { html } = await renderPostMail(input());
    const images = elements(html, "img");
    // The header, the three images of the body: no pixel of anyone's.
    expect(images).toHaveLength(4);
    for (const img of images) {
      expect(String(img.properties.src)).toMatch(/^https:\/\//);
      expect(Number(img.properties.width)).toBeGreaterThan(0);
      expect(Number(img.properties.width)).toBeLessThanOrEqual(600);
      expect(String(img.properties.style)).toContain("height: auto");
      for (const name of ["srcSet", "sizes", "loading", "decoding", "height"]) {
        expect(img.properties[name]).toBeUndefined();
      }
    }
    expect(html).not.toMatch(/<(?:picture|source)\b/);
    const srcs = images.map((img) => img.properties.src);
    // An upload's sharp-enough variant, not the page's widest.
    expect(srcs).toContain(`${SITE}/images/${"ab".repeat(32)}-1280.webp`);
    expect(srcs).toContain(`${SITE}/images/x.jpg`);
    expect(srcs).toContain("https://cdn.example.org/pic.png");
    const header = images[0]!;
    expect(header.properties.width).toBe(600);
    expect(header.properties.alt).toBe("A header photo");
  });

  it("makes every link absolute, as the article page resolves it, and rewrites none", async () => {
    const { html } = await renderPostMail(input());
    const hrefs = elements(html, "a").map((a) => String(a.properties.href));
    for (const href of hrefs) expect(href).toMatch(/^(?:https:\/\/|mailto:)/);
    expect(hrefs).toContain(`${SITE}/blog/other-post`);
    expect(hrefs).toContain(`${SITE}/blog/elsewhere`);
    expect(hrefs).toContain("https://example.org/page?a=1&b=2");
    expect(hrefs).toContain("mailto:hello@example.com");
    expect(hrefs).toContain(`${SITE}/blog/tea-and-biscuits#user-content-fn-1`);
  });

  it("carries its styles inline, with no <style> or <script> left", async () => {
    const { html } = await renderPostMail(input());
    expect(html).not.toMatch(/<style\b/i);
    expect(html).not.toMatch(/<script\b/i);
    expect(html).not.toContain("onerror");
    const paragraph = elements(html, "p").find((p) => textOf(p).startsWith("A paragraph"));
    expect(String(paragraph?.properties.style)).toContain("margin");
    const mailTable = elements(html, "table").find((t) => String(t.properties.className).includes("mail"));
    expect(mailTable?.properties.width).toBe(600);
    expect(String(mailTable?.properties.style)).toContain("max-width: 600px");
    const body = elements(html, "body")[0]!;
    expect(String(body.properties.style)).toContain("margin: 0");
    const cells = elements(html, "td").filter((td) => String(td.properties.style).includes("font-size: 16px"));
    expect(cells.length).toBeGreaterThan(0);
  });

  it("names the site, the title, date and author, links the article and says how to unsubscribe", async () => {
    const { subject, html, text } = await renderPostMail(input());
    expect(subject).toBe("Tea and biscuits");
    const links = elements(html, "a");
    const site = links.find((a) => textOf(a) === "Ojai Technology Services");
    expect(site?.properties.href).toBe(`${SITE}/`);
    const read = links.find((a) => textOf(a) === "Read it on Ojai Technology Services");
    expect(read?.properties.href).toBe(`${SITE}/blog/tea-and-biscuits`);
    const unsubscribe = links.find((a) => textOf(a) === "Unsubscribe");
    expect(unsubscribe?.properties.href).toBe(UNSUBSCRIBE);
    expect(html).toContain("You get this because you subscribed to Ojai Technology Services's newsletter.");
    expect(html).toContain("November 20, 2026 · By Ada Lovelace");
    expect(text).toContain(`Read it on Ojai Technology Services: ${SITE}/blog/tea-and-biscuits`);
    expect(text).toContain(`Unsubscribe: ${UNSUBSCRIBE}`);
    expect(text).toContain("You get this because you subscribed to Ojai Technology Services's newsletter.");
  });

  it("escapes the title, the alt text and the names it puts in", async () => {
    const title = 'Tea & <b>biscuits</b> "quoted" <script>x()</script>';
    const { subject, html } = await renderPostMail({
      ...input({ title, headerImageAlt: '"><script>y()</script>' }),
      site: { name: "A <i>&</i> B", url: SITE },
    });
    expect(subject).toBe(title);
    // Inside a quoted attribute < and > are text; what counts is that no element comes of them.
    for (const tagName of ["script", "b", "i"]) expect(elements(html, tagName)).toHaveLength(0);
    expect(textOf(elements(html, "h1")[0]!)).toBe(title);
    expect(textOf(elements(html, "title")[0]!)).toBe(title);
    expect(elements(html, "img")[0]!.properties.alt).toBe('"><script>y()</script>');
    expect(elements(html, "a").some((a) => textOf(a) === "A <i>&</i> B")).toBe(true);
  });

  it("writes a readable plain-text part: no tags, captions as text, links spelled out", async () => {
    const { text } = await renderPostMail(input());
    expect(text).not.toMatch(/<\/?[a-z][^>]*>/i);
    expect(text).toContain("A heading");
    expect(text).toContain(" * one");
    expect(text).toContain("The office in Ojai");
    expect(text).toContain("An uploaded photo");
    expect(text).toContain("[A desk]");
    expect(text).toContain(`another post [${SITE}/blog/other-post]`);
    expect(text).toContain("const a = 1 < 2;");
    expect(text).toContain("> Quoted words.");
    expect(text).toContain("A note[1].");
  });

  it("keeps figure captions as text beside their image", async () => {
    const { html } = await renderPostMail(input());
    const figures = elements(html, "figure");
    expect(figures.map((figure) => textOf(figure).trim())).toEqual(["The office in Ojai", "An uploaded photo"]);
    expect(elements(html, "figcaption")).toHaveLength(2);
  });

  it("leaves the header out when the post has none, and takes a site address with a trailing slash", async () => {
    const { html } = await renderPostMail(input({ headerImage: null, headerImageAlt: null }, `${SITE}/`));
    expect(elements(html, "img")).toHaveLength(3);
    expect(html).not.toContain(`${SITE}//`);
    expect(elements(html, "a").some((a) => a.properties.href === `${SITE}/blog/tea-and-biscuits`)).toBe(true);
  });

  it("gives each recipient their own unsubscribe link over the same body", async () => {
    const first = await renderPostMail(input());
    const second = await renderPostMail({ ...input(), unsubscribeUrl: `${SITE}/newsletter/unsubscribe/other` });
    expect(second.html).toContain(`${SITE}/newsletter/unsubscribe/other`);
    expect(second.html).not.toContain("tok-123");
    const body = (html: string) => html.slice(html.indexOf('class="post-body"'), html.indexOf('class="action"'));
    expect(body(second.html)).toBe(body(first.html));
    expect(body(first.html)).toContain("The office in Ojai");
  });
});
