/**
 * The markdown the editor inserts for an uploaded image:
 * `![alt](url "caption")` (docs/product/contract.md#images-in-a-posts-body).
 * Brackets and backslashes in the alt text and quotes in the caption are
 * escaped so that the text the writer typed is what the page shows; line
 * breaks, which would end the image, become spaces.
 *
 * An image the writer marks decorative has an empty alt text, as one whose
 * alt text was forgotten does; it is followed by DECORATIVE_MARK, an HTML
 * comment the pipeline drops (raw HTML never reaches the page), so the page
 * is the same and the check before publishing can tell the two apart (ADR 057).
 */
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** Written right after a decorative image: `![](url)<!-- decorative -->`. */
export const DECORATIVE_MARK = "<!-- decorative -->";

export function imageMarkdown(url: string, alt: string, caption = "", { decorative = false } = {}): string {
  const safeAlt = decorative ? "" : oneLine(alt).replace(/[\\[\]]/g, (c) => `\\${c}`);
  const safeCaption = oneLine(caption).replace(/[\\"]/g, (c) => `\\${c}`);
  return `![${safeAlt}](${url}${safeCaption ? ` "${safeCaption}"` : ""})${decorative ? DECORATIVE_MARK : ""}`;
}

/** Whether raw HTML that follows an image is the decorative mark (`<!--decorative-->` and letter case aside). */
export function isDecorativeMark(html: string): boolean {
  const text = html.trim();
  return text.startsWith("<!--") && text.endsWith("-->") && text.slice(4, -3).trim().toLowerCase() === "decorative";
}
