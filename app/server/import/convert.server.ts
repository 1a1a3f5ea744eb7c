import TurndownService from "turndown";
import { gfm } from "turndown-plugin-gfm";

/**
 * An export's HTML body as this site's Markdown (ADR 074): `turndown` with
 * GitHub's tables, fenced code and `-` lists, so an imported post edits like
 * a typed one and goes through the same renderer and sanitiser. What
 * Markdown cannot say is kept as its text, never as raw HTML: unknown
 * elements give their content, and a `<` in text is escaped. Images become
 * placeholders the importer swaps for the uploads it stores (or the old URL
 * when one cannot be fetched); a `<figure>`'s caption becomes the image's
 * title, which the renderer shows as its caption. WordPress's classic
 * editor stores paragraphs as blank lines and captions as a `[caption]`
 * shortcode: both are read; other shortcodes stay as text and are named in
 * the report.
 */

export interface ConvertedBody {
  markdown: string;
  /** Each distinct image source, in order; `placeholder(i)` marks where image i goes. */
  images: string[];
  /** Shortcode names found and kept as text (`gallery`, `embed`...), at most 10. */
  shortcodes: string[];
  /** Blocks with no content of their own (`latest-posts`, `archives`...), which the old site filled in: left out, at most 10. */
  dynamicBlocks: string[];
}

/** The mark an image's URL leaves in the Markdown until the importer knows where it is stored. */
export const placeholder = (index: number) => `\u0001img${index}\u0001`;

const escapeTitle = (text: string) => text.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("\n", " ");
const escapeAlt = (text: string) => text.replaceAll("\\", "\\\\").replaceAll("]", "\\]").replaceAll("\n", " ").trim();

function converter(images: string[], siteUrl: string | null): TurndownService {
  const service = new TurndownService({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
    emDelimiter: "_",
  });
  service.use(gfm);
  service.remove(["script", "style", "noscript", "template"]);
  const escape = service.escape.bind(service);
  service.escape = (text: string) => escape(text).replaceAll("<", "\\<");
  const imageOf = (node: HTMLElement, title: string) => {
    const src = (node.getAttribute("src") ?? "").trim();
    if (src === "" || src.startsWith("data:")) return escapeAlt(node.getAttribute("alt") ?? "");
    let index = images.indexOf(src);
    if (index === -1) index = images.push(src) - 1;
    const alt = escapeAlt(node.getAttribute("alt") ?? "");
    return `![${alt}](${placeholder(index)}${title ? ` "${escapeTitle(title)}"` : ""})`;
  };
  service.addRule("image", {
    filter: "img",
    replacement: (_content, node) => imageOf(node, node.getAttribute("title") ?? ""),
  });
  service.addRule("figure", {
    filter: (node) => node.nodeName === "FIGURE" && node.querySelector("img") !== null,
    replacement: (content, node) => {
      const figure = node;
      const caption = figure.querySelector("figcaption")?.textContent?.trim() ?? "";
      const images = figure.querySelectorAll("img");
      if (images.length !== 1) return `\n\n${content}\n\n`;
      return `\n\n${imageOf(images[0] as HTMLElement, caption)}\n\n`;
    },
  });
  // GFM tables need a heading row: a table without one (WordPress's table block by default) takes its first.
  service.addRule("headerlessTable", {
    filter: (node) => node.nodeName === "TABLE" && !hasHeadingRow(node),
    replacement: (content, node) => {
      const rows = content.split("\n").filter((row) => row.trim() !== "");
      if (rows.length === 0) return "";
      const columns = node.querySelector("tr")?.children.length ?? 1;
      return `\n\n${[rows[0] ?? "", `|${" --- |".repeat(columns)}`, ...rows.slice(1)].join("\n")}\n\n`;
    },
  });
  // A link to the old site becomes a path on this one: once the domain moves here, its redirect answers.
  service.addRule("link", {
    filter: (node) => node.nodeName === "A" && node.getAttribute("href") !== null,
    replacement: (content, node) => {
      const href = localHref(node.getAttribute("href")!.trim(), siteUrl);
      const title = node.getAttribute("title");
      return `[${content}](${href.replaceAll(" ", "%20").replaceAll(")", "%29")}${title ? ` "${escapeTitle(title)}"` : ""})`;
    },
  });
  service.addRule("embed", {
    filter: ["iframe", "video", "audio", "object", "embed"],
    replacement: (_content, node) => {
      const src = (node.getAttribute("src") ?? "").trim();
      return /^https?:\/\//i.test(src) ? `\n\n[Embedded media](${src.replaceAll(")", "%29")})\n\n` : "";
    },
  });
  return service;
}

/** Whether a table's first row is a heading (in a thead, or all th): the only tables the GFM plugin writes. */
function hasHeadingRow(table: HTMLElement): boolean {
  const row = table.querySelector("tr");
  if (!row) return false;
  if (row.parentNode?.nodeName === "THEAD") return true;
  // domino's collections are not iterable: read them by index.
  const cells = Array.from({ length: row.children.length }, (_, i) => row.children[i]!);
  return cells.every((cell) => cell.nodeName === "TH");
}

/** An address on the old site as a path (`https://old.example/2019/x/` is `/2019/x/`); any other as it is. */
function localHref(href: string, siteUrl: string | null): string {
  if (!siteUrl || !href.startsWith(siteUrl)) return href;
  const rest = href.slice(siteUrl.length);
  if (rest === "") return "/";
  return rest.startsWith("/") || rest.startsWith("?") || rest.startsWith("#")
    ? rest.startsWith("/")
      ? rest
      : `/${rest}`
    : href;
}

/** Block comments that close themselves (`<!-- wp:latest-posts /-->`): the old site drew their content. */
function dynamicBlocksIn(html: string): string[] {
  const names = new Set<string>();
  for (let at = html.indexOf("<!-- wp:"); at !== -1 && names.size < 10; at = html.indexOf("<!-- wp:", at + 1)) {
    const end = html.indexOf("-->", at);
    if (end === -1) break;
    if (!html.slice(at, end).trimEnd().endsWith("/")) continue;
    const inner = html.slice(at + "<!-- wp:".length, end).trim();
    const space = inner.search(/\s/);
    const name = space === -1 ? inner.slice(0, -1) : inner.slice(0, space);
    names.add(name.slice(0, 60));
  }
  return [...names];
}

/** Classic-editor bodies have no `<p>`: blank lines are paragraphs and single newlines breaks, as WordPress shows them. */
function paragraphs(html: string): string {
  const lower = html.toLowerCase();
  if (lower.includes("<p>") || lower.includes("<p ") || lower.includes("<!-- wp:")) return html;
  return html
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter((block) => block !== "")
    .map((block) => `<p>${block.replaceAll("\n", "<br>")}</p>`)
    .join("\n");
}

/** `[caption ...]<img ...> Text[/caption]` as the `<figure>` WordPress itself renders. */
function captions(html: string): string {
  let out = "";
  let at = 0;
  for (;;) {
    const start = html.indexOf("[caption", at);
    if (start === -1) break;
    const open = html.indexOf("]", start);
    const close = open === -1 ? -1 : html.indexOf("[/caption]", open);
    if (close === -1) break;
    const inner = html.slice(open + 1, close);
    const split = inner.lastIndexOf(">") + 1;
    out += `${html.slice(at, start)}<figure>${inner.slice(0, split)}<figcaption>${inner.slice(split).trim()}</figcaption></figure>`;
    at = close + "[/caption]".length;
  }
  return out + html.slice(at);
}

/** The names of shortcodes left in the body (`[gallery ids="1,2"]`), at most 10. */
function shortcodesIn(html: string): string[] {
  const names = new Set<string>();
  for (const match of html.matchAll(/\[([a-z][\w-]{0,40})[\s/\]]/g)) {
    names.add(match[1]!);
    if (names.size === 10) break;
  }
  return [...names];
}

export function convertBody(html: string, siteUrl: string | null = null): ConvertedBody {
  const images: string[] = [];
  const prepared = captions(paragraphs(html.replaceAll("\r\n", "\n")));
  const markdown = converter(images, siteUrl)
    .turndown(prepared)
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { markdown, images, shortcodes: shortcodesIn(prepared), dynamicBlocks: dynamicBlocksIn(prepared) };
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", hellip: "…" };

/** An HTML fragment's text, for an excerpt: tags dropped, common entities read, white space collapsed. Linear. */
export function textOf(html: string): string {
  let text = "";
  let inTag = false;
  for (const char of html) {
    if (char === "<") inTag = true;
    else if (char === ">" && inTag) {
      inTag = false;
      text += " ";
    } else if (!inTag) text += char;
  }
  return text
    .replace(/&(#\d{1,7}|[a-z]{2,8});/g, (entity, name: string) => {
      if (name.startsWith("#")) {
        const code = Number(name.slice(1));
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
      }
      return ENTITIES[name] ?? entity;
    })
    .replace(/\s+/g, " ")
    .trim();
}

/** The first `max` characters of a text, cut at a word, with an ellipsis when cut. */
export function excerptOf(text: string, max = 200): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
