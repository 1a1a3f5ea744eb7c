/**
 * Putting an image in a post's body (ADR 055): a file dropped on or pasted
 * into the text, or picked with "Insert image", is uploaded at once while the
 * writer gives its alt text and caption. A placeholder marks the spot in the
 * text meanwhile and is replaced (or removed) by its own token, so whatever
 * the writer types elsewhere in the meantime is kept. One image at a time.
 */
import { useRef, useState } from "react";
import { imageFileRefusal } from "~/lib/images";
import { imageMarkdown } from "~/lib/markdown-image";
import { ApiFailure, uploadImage } from "../admin-api";

export type UpdateContent = (update: (content: string) => string) => void;

type Upload = { state: "uploading" } | { state: "done"; url: string } | { state: "failed"; message: string };

/** The dialog's answer; a decorative image has no alt text and says so (markdown-image.ts). */
export interface ImageAnswer {
  alt: string;
  caption: string;
  decorative: boolean;
}

export interface PendingImage {
  name: string;
  upload: Upload;
}

const placeholderFor = (token: number) => `![Uploading image ${token}...]()`;

export function useBodyImage(updateContent: UpdateContent, onUploadingChange: (uploading: boolean) => void) {
  const [pending, setPending] = useState<PendingImage>();
  const [error, setError] = useState<string>();
  const token = useRef(0);
  const current = useRef<{ token: number; upload: Promise<string> }>(undefined);

  const replacePlaceholder = (of: number, markdown: string) =>
    updateContent((content) => {
      const placeholder = placeholderFor(of);
      if (content.includes(placeholder)) return content.replace(placeholder, () => markdown);
      // The writer deleted the placeholder: the image goes at the end.
      return markdown ? `${content.trimEnd()}\n\n${markdown}\n` : content;
    });

  /** Starts uploading `file` and marks its spot at `at` (a position in the text). */
  function start(file: File, at: number) {
    setError(undefined);
    if (pending) return setError("Finish the image being added first.");
    const refused = imageFileRefusal(file);
    if (refused) return setError(`Failed to upload image: ${refused}`);
    const mine = ++token.current;
    const placeholder = placeholderFor(mine);
    updateContent((content) => {
      const spot = Math.min(Math.max(at, 0), content.length);
      const before = content.slice(0, spot);
      const after = content.slice(spot);
      // A paragraph of its own, so that its caption can become a figure.
      const opening = before === "" || before.endsWith("\n\n") ? "" : before.endsWith("\n") ? "\n" : "\n\n";
      const closing = after === "" || after.startsWith("\n\n") ? "" : after.startsWith("\n") ? "\n" : "\n\n";
      return `${before}${opening}${placeholder}${closing}${after}`;
    });
    onUploadingChange(true);
    const upload = uploadImage(file);
    current.current = { token: mine, upload };
    setPending({ name: file.name || "image", upload: { state: "uploading" } });
    upload.then(
      (url) => setPending((p) => p && { ...p, upload: { state: "done", url } }),
      (cause: unknown) => {
        const message = cause instanceof ApiFailure ? cause.detail : "the server could not be reached. Try again.";
        setPending((p) => p && { ...p, upload: { state: "failed", message } });
      },
    );
  }

  /** The writer's answer: insert with this alt text and caption once uploaded, or (undefined) give up. */
  async function finish(answer: ImageAnswer | undefined) {
    const job = current.current;
    setPending(undefined);
    current.current = undefined;
    if (!job) return;
    // Save waits until the placeholder has gone from the text, one way or the other.
    try {
      if (!answer) return replacePlaceholder(job.token, "");
      replacePlaceholder(job.token, imageMarkdown(await job.upload, answer.alt, answer.caption, answer));
    } catch (cause) {
      replacePlaceholder(job.token, "");
      setError(`Failed to upload image: ${cause instanceof ApiFailure ? cause.detail : "try again."}`);
    } finally {
      onUploadingChange(false);
    }
  }

  return { pending, error, start, finish };
}
