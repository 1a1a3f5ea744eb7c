import type { Element, ElementContent, Root, RootContent } from "hast";
import { imageSrcSet, parseImageVariantPath } from "~/lib/images";

/**
 * Images in a post's body as the public page shows them
 * (docs/product/contract.md#images-in-a-posts-body): an uploaded image gets a
 * srcset of its stored widths, sizes for the article column, and width and
 * height so the page keeps its place while it loads, and loads lazily
 * unless it is the body's first image; any image's markdown title becomes
 * the caption of a figure. Other images keep what the sanitiser left. It runs on the sanitised tree and adds only values it computes (a
 * srcset from an id of hex digits and a width, numbers) and the title as a
 * text node, so nothing from the markdown becomes markup.
 */

/** The stored size of each upload a body names, by upload id (the SHA-256 its URLs carry). */
export type ImageSizes = Record<string, { width: number; height: number }>;

/** The article column: 768 px wide from 768 px up, the viewport's width below (article-view.tsx). */
const BODY_IMAGE_SIZES = "(min-width: 768px) 768px, 100vw";

type Node = RootContent | ElementContent;

const isImage = (node: Node): node is Element => node.type === "element" && node.tagName === "img";

const caption = (img: Element) => {
  const title = img.properties.title;
  return typeof title === "string" && title.trim() !== "" ? title.trim() : undefined;
};

function present(img: Element, sizes: ImageSizes, first: boolean) {
  const src = img.properties.src;
  const upload = typeof src === "string" ? parseImageVariantPath(src) : undefined;
  if (!upload || typeof src !== "string") return;
  img.properties.srcSet = imageSrcSet(src);
  img.properties.sizes = BODY_IMAGE_SIZES;
  const stored = sizes[upload.id];
  if (stored && stored.width > 0) {
    img.properties.width = upload.width;
    img.properties.height = Math.max(1, Math.round((upload.width * stored.height) / stored.width));
  }
  // The first may be on the first screen; the rest wait until they are near.
  if (!first) img.properties.loading = "lazy";
  img.properties.decoding = "async";
}

function figure(img: Element): Element {
  const text = caption(img)!;
  delete img.properties.title;
  return {
    type: "element",
    tagName: "figure",
    properties: {},
    children: [
      img,
      { type: "element", tagName: "figcaption", properties: {}, children: [{ type: "text", value: text }] },
    ],
  };
}

/** A paragraph around captioned images becomes the paragraphs between them and a figure for each (a figure cannot sit in a p). */
function split(paragraph: Element): Element[] {
  const parts: Element[] = [];
  let run: ElementContent[] = [];
  const flush = () => {
    if (run.some((node) => node.type !== "text" || node.value.trim() !== "")) {
      parts.push({ ...paragraph, children: run });
    }
    run = [];
  };
  for (const node of paragraph.children) {
    if (isImage(node) && caption(node)) {
      flush();
      parts.push(figure(node));
    } else run.push(node);
  }
  flush();
  return parts;
}

function withFigures(children: Node[]): Node[] {
  const out: Node[] = [];
  for (const node of children) {
    if (node.type !== "element") out.push(node);
    else if (node.tagName === "p" && node.children.some((child) => isImage(child) && caption(child))) {
      out.push(...split(node));
    } else {
      node.children = withFigures(node.children) as ElementContent[];
      out.push(node);
    }
  }
  return out;
}

function eachImage(nodes: Node[], visit: (img: Element) => void) {
  for (const node of nodes) {
    if (node.type !== "element") continue;
    if (node.tagName === "img") visit(node);
    else eachImage(node.children, visit);
  }
}

/** Presents the body's images in place on the sanitised tree. */
export function presentBodyImages(tree: Root, sizes: ImageSizes): void {
  let seen = 0;
  eachImage(tree.children, (img) => present(img, sizes, seen++ === 0));
  tree.children = withFigures(tree.children);
}
