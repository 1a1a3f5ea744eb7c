/**
 * The markdown body, where images can be dropped, pasted or picked with
 * "Insert image" (use-body-image.ts): each is uploaded and placed at the
 * cursor as `![alt](url "caption")` once the writer has described it.
 */
import { useRef } from "react";
import { ACCEPTED_IMAGE_TYPES } from "~/lib/images";
import { BodyImageDialog } from "./body-image-dialog";
import { hintClass, inputClass, labelClass, Required } from "./fields";
import type { SectionProps } from "./post-fields";
import { type UpdateContent, useBodyImage } from "./use-body-image";

/** The first image among files a drop or paste carries, if any. */
const imageIn = (files: FileList | undefined | null) =>
  [...(files ?? [])].find((file) => file.type.startsWith("image/"));

export function ContentField({
  draft,
  set,
  field,
  updateContent,
  onUploadingChange,
}: SectionProps & { updateContent: UpdateContent; onUploadingChange: (uploading: boolean) => void }) {
  const text = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const images = useBodyImage(updateContent, onUploadingChange);
  const cursor = () => text.current?.selectionStart ?? draft.content.length;

  return (
    <div className="flex flex-col gap-1">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <label htmlFor={field("content")} className={labelClass}>
          Content (Markdown)
          <Required />
        </label>
        <button
          type="button"
          onClick={() => picker.current?.click()}
          disabled={images.pending !== undefined}
          className="rounded-md border border-neutral-400 px-3 py-1.5 text-sm font-medium hover:bg-neutral-100 disabled:opacity-60"
        >
          Insert image
        </button>
        <input
          ref={picker}
          type="file"
          hidden
          accept={ACCEPTED_IMAGE_TYPES.join(",")}
          aria-label="Image file to insert"
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            event.currentTarget.value = "";
            if (file) images.start(file, cursor());
          }}
        />
      </div>
      <textarea
        ref={text}
        id={field("content")}
        rows={15}
        className={`${inputClass} font-mono text-sm leading-relaxed`}
        value={draft.content}
        aria-required="true"
        aria-describedby={`${field("content-hint")} ${field("content-image-error")}`}
        onChange={(e) => set("content", e.target.value)}
        onDrop={(event) => {
          const file = imageIn(event.dataTransfer.files);
          if (!file) return;
          event.preventDefault();
          images.start(file, cursor());
        }}
        onPaste={(event) => {
          const file = imageIn(event.clipboardData.files);
          if (!file) return;
          event.preventDefault();
          images.start(file, cursor());
        }}
      />
      <p id={field("content-image-error")} role="alert" className="text-sm text-red-800 empty:hidden">
        {images.error}
      </p>
      <p id={field("content-hint")} className={hintClass}>
        Markdown: ## for a heading, **bold**, *italic*, [link](https://...), - for a list, | for tables. Drop or paste
        an image here to add it.
      </p>
      <BodyImageDialog pending={images.pending} onFinish={(answer) => void images.finish(answer)} />
    </div>
  );
}
