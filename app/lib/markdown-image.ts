/**
 * The markdown the editor inserts for an uploaded image:
 * `![alt](url "caption")` (docs/product/contract.md#images-in-a-posts-body).
 * Brackets and backslashes in the alt text and quotes in the caption are
 * escaped so that the text the writer typed is what the page shows; line
 * breaks, which would end the image, become spaces.
 */
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

export function imageMarkdown(url: string, alt: string, caption = ""): string {
  const safeAlt = oneLine(alt).replace(/[\\[\]]/g, (c) => `\\${c}`);
  const safeCaption = oneLine(caption).replace(/[\\"]/g, (c) => `\\${c}`);
  return `![${safeAlt}](${url}${safeCaption ? ` "${safeCaption}"` : ""})`;
}
