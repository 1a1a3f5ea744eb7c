/**
 * The question an image in the body asks (ADR 055): its alt text, required
 * unless the writer says it is decorative, and an optional caption, while
 * the upload goes on; its progress and any failure show here.
 */
import * as Dialog from "@radix-ui/react-dialog";
import { useId, useRef, useState } from "react";
import { DialogAction, DialogActions } from "~/components/admin/dialog-actions";
import { MAX_IMAGE_ALT } from "~/lib/post-rules";
import { hintClass, inputClass, labelClass } from "./fields";
import type { ImageAnswer, PendingImage } from "./use-body-image";

const MAX_CAPTION = 300;

function UploadStatus({ pending }: { pending: PendingImage }) {
  const { upload } = pending;
  return (
    <p role="status" className={`mt-2 ${upload.state === "failed" ? "text-sm text-red-800" : hintClass}`}>
      {upload.state === "uploading" && `Uploading ${pending.name}...`}
      {upload.state === "done" && `${pending.name} is uploaded.`}
      {upload.state === "failed" && `Failed to upload image: ${upload.message}`}
    </p>
  );
}

export function BodyImageDialog({
  pending,
  onFinish,
}: {
  pending: PendingImage | undefined;
  onFinish: (answer: ImageAnswer | undefined) => void;
}) {
  const id = useId();
  const [alt, setAlt] = useState("");
  const [caption, setCaption] = useState("");
  const [decorative, setDecorative] = useState(false);
  const [missingAlt, setMissingAlt] = useState(false);
  const altInput = useRef<HTMLInputElement>(null);
  const failed = pending?.upload.state === "failed";

  const close = (answer: ImageAnswer | undefined) => {
    setAlt("");
    setCaption("");
    setDecorative(false);
    setMissingAlt(false);
    onFinish(answer);
  };
  const insert = (event: React.FormEvent) => {
    event.preventDefault();
    // React passes events up through the portal: this form sits inside the editor's, which would save the post.
    event.stopPropagation();
    if (!decorative && alt.trim() === "") {
      setMissingAlt(true);
      altInput.current?.focus();
      return;
    }
    close({ alt: decorative ? "" : alt, caption, decorative });
  };

  return (
    <Dialog.Root open={pending !== undefined} onOpenChange={(open) => !open && close(undefined)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[70] bg-black/60" />
        <Dialog.Content
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            altInput.current?.focus();
          }}
          className="fixed left-1/2 top-1/2 z-[70] max-h-[90dvh] w-[calc(100%-1.5rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg bg-white p-6 shadow-xl"
        >
          <Dialog.Title className="text-xl font-bold">Describe the image</Dialog.Title>
          <Dialog.Description className="mt-2 text-neutral-800">
            The alt text is read to people who cannot see the image, and shown when it cannot load.
          </Dialog.Description>
          {pending && <UploadStatus pending={pending} />}
          <form noValidate onSubmit={insert} className="mt-4 flex flex-col gap-4">
            <div className="flex flex-col gap-1">
              <label htmlFor={`${id}-alt`} className={labelClass}>
                Alt text
              </label>
              <input
                ref={altInput}
                id={`${id}-alt`}
                className={inputClass}
                value={alt}
                disabled={decorative}
                maxLength={MAX_IMAGE_ALT}
                aria-invalid={missingAlt && !decorative ? true : undefined}
                aria-describedby={`${id}-alt-hint`}
                onChange={(e) => setAlt(e.target.value)}
              />
              <p id={`${id}-alt-hint`} className={missingAlt && !decorative ? "text-sm text-red-800" : hintClass}>
                {missingAlt && !decorative
                  ? "Describe the image, or mark it as decorative."
                  : "What the image shows, in a sentence."}
              </p>
            </div>
            <div className="flex items-center gap-2">
              <input
                id={`${id}-decorative`}
                type="checkbox"
                className="h-5 w-5 accent-brand-700"
                checked={decorative}
                onChange={(e) => setDecorative(e.target.checked)}
              />
              <label htmlFor={`${id}-decorative`} className="text-neutral-800">
                Decorative: it adds nothing the text does not say
              </label>
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor={`${id}-caption`} className={labelClass}>
                Caption (optional)
              </label>
              <input
                id={`${id}-caption`}
                className={inputClass}
                value={caption}
                maxLength={MAX_CAPTION}
                onChange={(e) => setCaption(e.target.value)}
              />
            </div>
            <DialogActions inForm>
              <DialogAction tone="primary" type="submit" disabled={failed}>
                Insert image
              </DialogAction>
            </DialogActions>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
