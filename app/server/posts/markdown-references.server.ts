import type { Nodes, Root } from "mdast";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";
import { isDecorativeMark } from "~/lib/markdown-image";

/**
 * What the check before publishing (publish-check.server.ts, ADR 057) needs
 * from a post's markdown: every link and image address and every image
 * without alt text, each with its place in the text (UTF-16 offsets, as a
 * textarea's selection counts). The same parser as the pipeline
 * (remark-parse and remark-gfm), so a link is what the page will link; it
 * runs in the renderer process like the pipeline (ADR 039), and this module
 * loads nothing else.
 */

export interface MarkdownReference {
  /** A link, an image, or a reference definition (`[name]: url`, which links and images may use). */
  kind: "link" | "image" | "definition";
  /** The address as written; "" for an image reference, whose address is its definition's. */
  url: string;
  start: number;
  end: number;
  /** An image whose alt text is empty and not marked decorative (markdown-image.ts). */
  missingAlt?: boolean;
}

export interface MarkdownReferences {
  references: MarkdownReference[];
  /** More links and images follow than `limit`: they were not read. */
  more: boolean;
}

const parser = unified().use(remarkParse).use(remarkGfm).freeze();

const place = (node: Nodes) => ({ start: node.position?.start.offset ?? 0, end: node.position?.end.offset ?? 0 });

/** An image's alt text is missing when empty and the raw HTML right after it is not the decorative mark. */
function missingAlt(alt: string | null | undefined, next: Nodes | undefined): boolean {
  if ((alt ?? "").trim() !== "") return false;
  return !(next?.type === "html" && isDecorativeMark(next.value));
}

function referenceOf(node: Nodes, next: Nodes | undefined): MarkdownReference | undefined {
  switch (node.type) {
    case "link":
      return { kind: "link", url: node.url, ...place(node) };
    case "definition":
      return { kind: "definition", url: node.url, ...place(node) };
    case "image":
      return { kind: "image", url: node.url, ...place(node), missingAlt: missingAlt(node.alt, next) };
    case "imageReference":
      return { kind: "image", url: "", ...place(node), missingAlt: missingAlt(node.alt, next) };
    default:
      return undefined;
  }
}

/**
 * The first `limit` links, images and definitions of `markdown`, in the
 * order they appear. Iterative (a stack, not recursion): deeply nested
 * markdown cannot overflow it.
 */
export function markdownReferences(markdown: string, limit: number): MarkdownReferences {
  const tree: Root = parser.parse(markdown);
  const references: MarkdownReference[] = [];
  // Children are visited in document order: each parent's are pushed in reverse.
  const pending: Array<{ node: Nodes; next: Nodes | undefined }> = [{ node: tree, next: undefined }];
  while (pending.length > 0) {
    const { node, next } = pending.pop()!;
    const found = referenceOf(node, next);
    if (found) {
      if (references.length === limit) return { references, more: true };
      references.push(found);
    }
    if ("children" in node) {
      const children = node.children as Nodes[];
      for (let i = children.length - 1; i >= 0; i--) pending.push({ node: children[i]!, next: children[i + 1] });
    }
  }
  return { references, more: false };
}
