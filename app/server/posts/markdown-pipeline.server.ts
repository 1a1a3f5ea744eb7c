import type { Element, Root } from "hast";
import { presentBodyImages, type ImageSizes } from "./body-images.server";
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import { visit } from "unist-util-visit";

/**
 * The one markdown pipeline (docs/product/contract.md#public-content, ADR 004): GFM to HTML, sanitised with
 * an allow-list. It runs on the server when a post is saved (the HTML is
 * stored) and for the admin preview, so the preview equals the result.
 *
 * Defence in depth:
 * - raw HTML in the markdown is never parsed into elements (remark-rehype
 *   without allowDangerousHtml drops it);
 * - rehype-sanitize runs LAST, with GitHub's allow-list narrowed further: no
 *   `style`, no inline SVG/MathML, no forms, no tabindex/accesskey, links only
 *   to http(s), mailto and tel (or relative), images only from http(s) or
 *   this site; the ids markdown makes (footnotes) carry the `user-content-`
 *   prefix so an article cannot clobber the page's own DOM;
 * - nothing runs after sanitising that could reintroduce markup: the one
 *   step after it (body-images.server.ts) adds computed attributes and
 *   turns an image's title into a caption's text.
 *
 * Server-only (`*.server.ts`): React Router's build refuses it in any browser
 * bundle; it runs in the markdown worker (markdown.server.ts).
 */

/** Allowed by GitHub's schema but never produced from markdown, or a risk if raw HTML were ever let in. */
const droppedTagNames = new Set(["picture", "source"]);
const droppedGlobalAttributes = new Set([
  "accessKey",
  "tabIndex",
  "action",
  "method",
  "encType",
  "accept",
  "acceptCharset",
]);

const defaultAttributes = defaultSchema.attributes ?? {};
const schema: SanitizeSchema = {
  ...defaultSchema,
  // remark-rehype already prefixes the only ids markdown can make (footnotes);
  // a second prefix here would break the footnote links.
  clobberPrefix: "",
  tagNames: (defaultSchema.tagNames ?? []).filter((name) => !droppedTagNames.has(name)),
  attributes: {
    ...defaultAttributes,
    a: [...(defaultAttributes.a ?? []), ["rel", "noopener", "noreferrer"]],
    "*": (defaultAttributes["*"] ?? []).filter(
      (attribute) => typeof attribute !== "string" || !droppedGlobalAttributes.has(attribute),
    ),
  },
  protocols: {
    ...defaultSchema.protocols,
    href: ["http", "https", "mailto", "tel"],
    cite: ["http", "https"],
    src: ["http", "https"],
    longDesc: ["http", "https"],
  },
  strip: [
    "script",
    "style",
    "iframe",
    "object",
    "embed",
    "svg",
    "math",
    "template",
    "noscript",
    "form",
    "textarea",
    "select",
  ],
};

/**
 * The page's own title is its only h1; a `#` heading in the body becomes h2
 * so the document outline stays valid (and axe's heading rules pass).
 */
function demoteH1() {
  return (tree: Root) => {
    visit(tree, "element", (node: Element) => {
      if (node.tagName === "h1") node.tagName = "h2";
    });
  };
}

/** Links that leave the site must not get a handle on this window. */
function safeExternalLinks() {
  return (tree: Root) => {
    visit(tree, "element", (node: Element) => {
      if (node.tagName !== "a") return;
      const href = node.properties?.href;
      if (typeof href === "string" && /^https?:\/\//i.test(href)) {
        node.properties.rel = ["noopener", "noreferrer"];
      }
    });
  };
}

const toTree = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype)
  .use(demoteH1)
  .use(safeExternalLinks)
  .use(rehypeSanitize, schema)
  .freeze();
const toHtml = unified().use(rehypeStringify).freeze();

/**
 * Markdown (GFM) to sanitised HTML. Never throws on odd input. `images`: the
 * stored size of each upload the markdown names, for its width and height.
 */
export function renderMarkdown(markdown: string, images: ImageSizes = {}): string {
  const tree = toTree.runSync(toTree.parse(markdown));
  presentBodyImages(tree, images);
  return toHtml.stringify(tree);
}
