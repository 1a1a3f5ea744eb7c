/**
 * A post as the newsletter mails it (issue 46): subject, HTML for mail
 * clients and a plain-text part.
 *
 * Why it is its own module: mail clients are not browsers. They drop <style>
 * (some of them), ignore srcset, sizes and lazy loading, resolve no relative
 * URL and lay out tables better than anything else. So the body is rendered
 * by the site's one markdown pipeline (posts' renderMarkdownSafely, the same
 * sanitised HTML the article page shows, in the renderer process with its
 * deadline) and then made mail-safe here: every image an absolute src and a
 * width of at most the column's and nothing else the page adds, every link
 * absolute as the article page would resolve it, in a 600 px table with a
 * small stylesheet that juice inlines into style attributes. No tracking
 * pixel and no rewritten links: the mail says what the page says.
 *
 * Pure: no database, no clock, nothing sent. The body is bounded by the posts
 * API's limits (the renderer's deadline bounds its render); the last body's
 * mail-safe HTML and text are kept, so a mailing that renders one mail per
 * recipient (each with its own unsubscribe link) renders the markdown once.
 */
import type { Element, ElementContent, Properties, Root } from "hast";
import { convert, type HtmlToTextOptions } from "html-to-text";
import rehypeParse from "rehype-parse";
import rehypeStringify from "rehype-stringify";
import { unified } from "unified";
import { newsletterMail } from "~/content/newsletter-mail";
import { formatDate } from "~/lib/dates";
import { imageVariantPath, parseImageVariantPath, variantWidthsFor } from "~/lib/images";
import { renderMarkdownSafely } from "../posts/index.server";

export interface PostMailInput {
  post: {
    title: string;
    slug: string;
    excerpt: string;
    /** Markdown, as the post is stored. */
    body: string;
    publishDate: string;
    author: string;
    headerImage: string | null;
    headerImageAlt: string | null;
  };
  /** `url`: the site's absolute origin, e.g. https://example.com. */
  site: { name: string; url: string };
  /** Absolute: this recipient's own link. */
  unsubscribeUrl: string;
}

export interface PostMail {
  subject: string;
  html: string;
  text: string;
}

/** The mail's width, the most mail clients lay out well, and its gutter. */
const MAIL_WIDTH = 600;
const GUTTER = 24;
/** The body's column: the mail less its gutters. */
const COLUMN_WIDTH = MAIL_WIDTH - 2 * GUTTER;

const FONT = `system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif`;
const MONO = `ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace`;

/** Inlined by juice into each element's style attribute; no <style> is left in the mail. */
const STYLESHEET = `
body { margin: 0; padding: 0; background-color: #f4f4f5; }
.outer { width: 100%; background-color: #f4f4f5; }
.outer-cell { padding: 24px 8px; }
.mail { width: 100%; max-width: ${MAIL_WIDTH}px; background-color: #ffffff; border-collapse: collapse; }
td { font-family: ${FONT}; font-size: 16px; line-height: 1.6; color: #1f2937; }
.preheader { display: none; max-height: 0; overflow: hidden; mso-hide: all; font-size: 1px; line-height: 1px; color: #ffffff; }
.masthead { padding: 20px ${GUTTER}px; border-bottom: 4px solid #2f7a43; }
.site-name { font-size: 18px; font-weight: 700; color: #1b4d2d; text-decoration: none; }
.header-image { padding: 0; }
.header-image img { display: block; width: 100%; max-width: ${MAIL_WIDTH}px; height: auto; border: 0; }
.content { padding: 24px ${GUTTER}px 8px; }
.title { margin: 0 0 8px; font-size: 28px; line-height: 1.25; font-weight: 700; color: #111827; }
.byline { margin: 0 0 24px; font-size: 14px; color: #4b5563; }
.post-body { font-size: 16px; line-height: 1.6; color: #1f2937; overflow-wrap: break-word; }
.post-body p { margin: 0 0 16px; }
.post-body h2 { margin: 32px 0 12px; font-size: 22px; line-height: 1.3; color: #111827; }
.post-body h3 { margin: 24px 0 8px; font-size: 19px; line-height: 1.35; color: #111827; }
.post-body h4, .post-body h5, .post-body h6 { margin: 20px 0 8px; font-size: 16px; color: #111827; }
.post-body ul, .post-body ol { margin: 0 0 16px; padding-left: 24px; }
.post-body li { margin: 0 0 6px; }
.post-body a { color: #23633a; text-decoration: underline; }
.post-body img { display: block; max-width: 100%; height: auto; border: 0; }
.post-body figure { margin: 24px 0; }
.post-body figcaption { margin-top: 8px; font-size: 14px; line-height: 1.5; color: #4b5563; }
.post-body blockquote { margin: 0 0 16px; padding: 4px 0 4px 16px; border-left: 4px solid #a7d0b0; color: #374151; }
.post-body blockquote p { margin: 0 0 8px; }
.post-body pre { margin: 0 0 16px; padding: 12px 14px; background-color: #f4f4f5; border-radius: 6px; white-space: pre-wrap; word-wrap: break-word; font-family: ${MONO}; font-size: 14px; line-height: 1.5; }
.post-body code { font-family: ${MONO}; font-size: 14px; background-color: #f4f4f5; padding: 1px 4px; border-radius: 4px; }
.post-body pre code { padding: 0; background-color: transparent; }
.post-body table { margin: 0 0 16px; border-collapse: collapse; }
.post-body th, .post-body td { padding: 6px 10px; border: 1px solid #d4d4d8; text-align: left; }
.post-body hr { margin: 24px 0; border: 0; border-top: 1px solid #e4e4e7; }
.post-body sup { line-height: 0; }
.post-body .footnotes { margin-top: 32px; font-size: 14px; color: #4b5563; }
.post-body .footnotes h2 { margin: 0 0 8px; font-size: 16px; }
.action { padding: 8px ${GUTTER}px 32px; }
.button-cell { border-radius: 6px; background-color: #23633a; }
.button { display: inline-block; padding: 12px 22px; font-family: ${FONT}; font-size: 16px; font-weight: 700; color: #ffffff; text-decoration: none; border-radius: 6px; }
.footer { padding: 20px ${GUTTER}px 28px; border-top: 1px solid #e4e4e7; }
.footer p { margin: 0 0 8px; font-size: 13px; line-height: 1.5; color: #4b5563; }
.footer a { color: #23633a; text-decoration: underline; }
`;

/** What the page has or the pipeline could add and a mail has no use for, or mail clients break on. */
const DROPPED = new Set(["script", "style", "link", "meta", "iframe", "object", "embed", "source", "template"]);

/** A URL with its own scheme (https:, mailto:) is absolute already; any other is relative to the article. */
const HAS_SCHEME = /^[a-z][\d+.a-z-]*:/i;

const parser = unified().use(rehypeParse, { fragment: true }).freeze();
const printer = unified().use(rehypeStringify).freeze();

type Child = ElementContent | string;

function el(tagName: string, properties: Properties, children: Child[] = []): Element {
  return {
    type: "element",
    tagName,
    properties,
    children: children.map((child) => (typeof child === "string" ? { type: "text", value: child } : child)),
  };
}

/** `value` resolved as the article page would resolve it, or undefined when it is no http(s) address. */
function absoluteUrl(value: string, base: string): string | undefined {
  if (HAS_SCHEME.test(value)) return /^https?:/i.test(value) ? value : undefined;
  try {
    return new URL(value, base).href;
  } catch {
    return undefined;
  }
}

/** A link's address, absolute; mailto: and tel: stay, any other scheme goes. */
function linkHref(href: string, base: string): string | undefined {
  return /^(?:mailto|tel):/i.test(href) ? href : absoluteUrl(href, base);
}

/**
 * An image's absolute src and width. An upload names its widest variant:
 * the mail takes the narrowest one that is still sharp at twice the width it
 * is shown at, rather than the page's largest.
 */
function mailImage(src: string, base: string, maxWidth: number): { src: string; width: number } | undefined {
  const upload = parseImageVariantPath(src);
  const chosen = upload
    ? imageVariantPath(upload.id, variantWidthsFor(upload.width).find((w) => w >= 2 * maxWidth) ?? upload.width)
    : src;
  const url = absoluteUrl(chosen, base);
  return url ? { src: url, width: Math.min(maxWidth, upload?.width ?? maxWidth) } : undefined;
}

/** The body's nodes as a mail carries them (see the module's comment). */
function mailSafe(nodes: ElementContent[], base: string): ElementContent[] {
  const out: ElementContent[] = [];
  for (const node of nodes) {
    if (node.type === "comment") continue;
    if (node.type !== "element") {
      out.push(node);
    } else if (DROPPED.has(node.tagName)) {
      continue;
    } else if (node.tagName === "picture") {
      out.push(...mailSafe(node.children, base));
    } else if (node.tagName === "input") {
      // A task list's box: mail clients drop form controls, text keeps the mark.
      out.push({ type: "text", value: node.properties.checked ? "☑" : "☐" });
    } else if (node.tagName === "img") {
      const image = mailImage(String(node.properties.src ?? ""), base, COLUMN_WIDTH);
      const alt = typeof node.properties.alt === "string" ? node.properties.alt : "";
      if (image) out.push(el("img", { src: image.src, alt, width: image.width }));
    } else {
      if (node.tagName === "a" && typeof node.properties.href === "string") {
        const href = linkHref(node.properties.href, base);
        if (href) node.properties.href = href;
        else delete node.properties.href;
      }
      node.children = mailSafe(node.children, base);
      out.push(node);
    }
  }
  return out;
}

/**
 * The plain-text part: links spelled out in brackets, an image as its alt
 * text (its caption follows as a line of its own), headings as written, a
 * footnote's number without its address, tables as columns.
 */
const TEXT_OPTIONS: HtmlToTextOptions = {
  wordwrap: 78,
  formatters: {
    altText: (elem, _walk, builder) => {
      const alt = (elem.attribs as Record<string, string | undefined> | undefined)?.alt?.trim();
      if (alt) builder.addInline(`[${alt}]`);
    },
    footnoteRef: (elem, walk, builder) => {
      builder.addInline("[");
      walk(elem.children, builder);
      builder.addInline("]");
    },
  },
  selectors: [
    ...["h1", "h2", "h3", "h4", "h5", "h6"].map((selector) => ({ selector, options: { uppercase: false } })),
    { selector: "a", options: { hideLinkHrefIfSameAsText: true } },
    { selector: "a[data-footnote-ref]", format: "footnoteRef" },
    { selector: "a[data-footnote-backref]", format: "skip" },
    { selector: "img", format: "altText" },
    { selector: "figure", format: "block" },
    { selector: "figcaption", format: "block" },
    { selector: "table", format: "dataTable" },
  ],
};

/** The body's mail-safe nodes and its plain text, for one post and site. */
interface MailBody {
  key: string;
  nodes: ElementContent[];
  text: string;
}

let lastBody: MailBody | undefined;

async function mailBody(markdown: string, articleUrl: string): Promise<MailBody> {
  const key = `${articleUrl}\n${markdown}`;
  if (lastBody?.key === key) return lastBody;
  const page = await renderMarkdownSafely(markdown);
  const nodes = mailSafe(parser.parse(page).children as ElementContent[], articleUrl);
  const html = printer.stringify({ type: "root", children: nodes });
  lastBody = { key, nodes, text: convert(html, TEXT_OPTIONS).trim() };
  return lastBody;
}

/** A table only for layout: mail clients lay tables out, screen readers skip them. */
function layoutTable(className: string, width: string | number | undefined, rows: Element[]): Element {
  return el(
    "table",
    { role: "presentation", className: [className], width, cellPadding: "0", cellSpacing: "0", border: 0 },
    rows,
  );
}

const row = (cell: Element) => el("tr", {}, [cell]);

/** The whole document around the body's nodes. */
function mailDocument(input: PostMailInput, siteUrl: string, articleUrl: string, body: ElementContent[]): Root {
  const { post, site } = input;
  const header = post.headerImage ? mailImage(post.headerImage, articleUrl, MAIL_WIDTH) : undefined;
  const rows: Element[] = [
    row(
      el("td", { className: ["masthead"] }, [el("a", { href: `${siteUrl}/`, className: ["site-name"] }, [site.name])]),
    ),
    ...(header
      ? [
          row(
            el("td", { className: ["header-image"] }, [
              el("img", { src: header.src, alt: post.headerImageAlt ?? "", width: header.width }),
            ]),
          ),
        ]
      : []),
    row(
      el("td", { className: ["content"] }, [
        el("h1", { className: ["title"] }, [post.title]),
        el("p", { className: ["byline"] }, [newsletterMail.byline(formatDate(post.publishDate), post.author)]),
        el("div", { className: ["post-body"] }, body),
      ]),
    ),
    row(
      el("td", { className: ["action"] }, [
        layoutTable("button-table", undefined, [
          row(
            el("td", { className: ["button-cell"] }, [
              el("a", { href: articleUrl, className: ["button"] }, [newsletterMail.readOnSite(site.name)]),
            ]),
          ),
        ]),
      ]),
    ),
    row(
      el("td", { className: ["footer"] }, [
        el("p", {}, [newsletterMail.why(site.name)]),
        el("p", {}, [el("a", { href: input.unsubscribeUrl }, [newsletterMail.unsubscribe])]),
      ]),
    ),
  ];
  const outer = layoutTable("outer", "100%", [
    row(el("td", { className: ["outer-cell"], align: "center" }, [layoutTable("mail", MAIL_WIDTH, rows)])),
  ]);
  return {
    type: "root",
    children: [
      { type: "doctype" },
      el("html", { lang: "en" }, [
        el("head", {}, [
          el("meta", { charSet: "utf-8" }),
          el("meta", { name: "viewport", content: "width=device-width, initial-scale=1" }),
          el("meta", { name: "color-scheme", content: "light" }),
          el("title", {}, [post.title]),
        ]),
        el("body", {}, [el("div", { className: ["preheader"] }, [post.excerpt]), outer]),
      ]),
    ],
  };
}

function mailText(input: PostMailInput, articleUrl: string, body: string): string {
  const { post, site } = input;
  return [
    site.name,
    "",
    post.title,
    newsletterMail.byline(formatDate(post.publishDate), post.author),
    "",
    body,
    "",
    newsletterMail.readOnSiteText(site.name, articleUrl),
    "",
    "--",
    newsletterMail.why(site.name),
    newsletterMail.unsubscribeText(input.unsubscribeUrl),
    "",
  ].join("\n");
}

/**
 * The mail of a post for one recipient. MarkdownRenderError (posts) when the
 * body cannot be rendered in time, as when it is saved.
 */
export async function renderPostMail(input: PostMailInput): Promise<PostMail> {
  const siteUrl = input.site.url.endsWith("/") ? input.site.url.slice(0, -1) : input.site.url;
  const articleUrl = `${siteUrl}/blog/${encodeURIComponent(input.post.slug)}`;
  const body = await mailBody(input.post.body, articleUrl);
  // The cached nodes are copied into this mail's tree, never changed by it.
  const document = mailDocument(input, siteUrl, articleUrl, structuredClone(body.nodes));
  // Loaded here, not at start: juice, with cheerio and undici, is a 2.3 MB
  // chunk of the server build that only a process sending a post's mail needs.
  const { default: juice } = await import("juice");
  const html = juice.inlineContent(printer.stringify(document), STYLESHEET, {
    applyWidthAttributes: false,
    applyHeightAttributes: false,
    removeStyleTags: true,
  });
  return { subject: input.post.title, html, text: mailText(input, articleUrl, body.text) };
}
