/** The editor's header image field: upload, replace or remove the post's image. */
import { useId, useRef, useState } from "react";
import { PostImage } from "~/components/site/post-image";
import { ACCEPTED_IMAGE_TYPES, imageFileRefusal } from "~/lib/images";
import { ApiFailure, uploadImage } from "../admin-api";
import { hintClass, labelClass } from "./fields";

export function HeaderImageField({
  value,
  onChange,
  onUploadingChange,
}: {
  value: string | null;
  onChange: (url: string | null) => void;
  onUploadingChange: (uploading: boolean) => void;
}) {
  const id = useId();
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string>();
  const input = useRef<HTMLInputElement>(null);

  async function choose(file: File | undefined) {
    setError(undefined);
    if (!file) return;
    const fail = (message: string, cause?: unknown) => {
      console.error("Failed to upload image", cause ?? message);
      setError(`Failed to upload image: ${message}`);
    };
    try {
      const refused = imageFileRefusal(file);
      if (refused) return fail(refused);
      setUploading(true);
      onUploadingChange(true);
      onChange(await uploadImage(file));
    } catch (cause) {
      fail(cause instanceof ApiFailure ? cause.detail : "the server could not be reached. Try again.", cause);
    } finally {
      setUploading(false);
      onUploadingChange(false);
      if (input.current) input.current.value = "";
    }
  }

  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={id} className={labelClass}>
        Header Image
      </label>
      {value && (
        <div className="flex flex-wrap items-center gap-3">
          <PostImage
            src={value}
            sizes="160px"
            alt="Current header image"
            className="h-20 w-36 rounded-md border border-neutral-200 object-cover"
          />
          <button
            type="button"
            onClick={() => onChange(null)}
            className="rounded-md border border-neutral-400 px-3 py-1.5 text-sm font-medium hover:bg-neutral-100"
          >
            Remove image
          </button>
        </div>
      )}
      <input
        ref={input}
        id={id}
        type="file"
        accept={ACCEPTED_IMAGE_TYPES.join(",")}
        disabled={uploading}
        aria-describedby={`${id}-hint ${id}-status`}
        onChange={(event) => void choose(event.currentTarget.files?.[0])}
        className="block w-full text-sm text-neutral-800 file:mr-3 file:rounded-md file:border-0 file:bg-brand-700 file:px-3 file:py-2 file:font-medium file:text-white hover:file:bg-brand-800"
      />
      <p id={`${id}-hint`} className={hintClass}>
        JPEG, PNG, WebP, GIF or AVIF, up to 10 MB. {value ? "Choosing a file replaces the current image." : ""}
      </p>
      <div id={`${id}-status`} aria-live="polite">
        {uploading && <p className="text-sm font-medium text-brand-800">Uploading image...</p>}
      </div>
      {error && (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      )}
    </div>
  );
}
