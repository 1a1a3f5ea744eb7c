/**
 * A post's body as HTML: the markdown rendered in the renderer process with
 * the stored size of every upload it names, so its images get width and
 * height (body-images.server.ts). Saves, the editor's preview and restores
 * all come here: the preview is the page.
 */
import { imageIdsUsedBy } from "~/lib/images";
import type { Db } from "../db/db.server";
import { storedImageSizes } from "../images/index.server";
import { renderMarkdownSafely } from "./markdown.server";

export async function renderPostBody(db: Db, markdown: string): Promise<string> {
  const ids = imageIdsUsedBy({ headerImage: null, content: markdown });
  const sizes = ids.length > 0 ? await storedImageSizes(db, ids) : {};
  return renderMarkdownSafely(markdown, sizes);
}
