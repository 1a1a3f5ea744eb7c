/**
 * A team member's photo: upload (the same call and rules as every image
 * upload), replace or remove, and its description for people who cannot see
 * it, required with a photo.
 */
import { useId, useRef, useState } from "react";
import { hintClass, inputClass, labelClass } from "~/components/admin/field-classes";
import { pagesText } from "~/content/pages";
import { ACCEPTED_IMAGE_TYPES, MAX_IMAGE_BYTES } from "~/lib/images";
import { CONTENT_LIMITS, fieldPath } from "~/lib/site-content";
import { ContentApiFailure, uploadPhoto } from "./content-api";
import { FieldError, useForm } from "./form-context";
import { getAt, inputIdOf, labelOf, type Path } from "./form-model";

type Photo = { url: string; alt: string } | null;

export function PhotoField({ path, label }: { path: Path; label: string }) {
  const { document, issues, update } = useForm();
  const photo = (getAt(document, path) as Photo | undefined) ?? null;
  const fileId = useId();
  const altId = inputIdOf([...path, "alt"]);
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string>();
  const altError = issues.get(fieldPath([...path, "alt"]));
  const urlError = issues.get(fieldPath([...path, "url"]));

  async function choose(file: File | undefined) {
    setError(undefined);
    if (!file) return;
    if (file.type && !(ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type))
      return setError("Choose a JPEG, PNG, WebP, GIF or AVIF image.");
    if (file.size > MAX_IMAGE_BYTES) return setError("The file is over 10 MB; at most 10 MB are accepted.");
    setUploading(true);
    try {
      const url = await uploadPhoto(file);
      update(path, { url, alt: photo?.alt ?? "" });
    } catch (cause) {
      setError(`The photo could not be uploaded: ${cause instanceof ContentApiFailure ? cause.detail : "try again"}.`);
    } finally {
      setUploading(false);
      if (input.current) input.current.value = "";
    }
  }

  return (
    <div className="flex flex-col gap-2">
      <span className={labelClass}>{label}</span>
      {photo ? (
        <div className="flex flex-wrap items-center gap-3">
          <img src={photo.url} alt="" className="h-20 w-20 rounded-full border border-neutral-200 object-cover" />
          <button
            type="button"
            onClick={() => update(path, null)}
            className="min-h-9 rounded-md border border-neutral-400 px-3 py-1 text-sm font-medium hover:bg-neutral-100"
          >
            {pagesText.removePhoto}
          </button>
        </div>
      ) : (
        <p className={hintClass}>{pagesText.noPhoto}</p>
      )}
      <label htmlFor={fileId} className={labelClass}>
        {photo ? pagesText.replacePhoto : pagesText.uploadPhoto}
      </label>
      <input
        ref={input}
        id={fileId}
        type="file"
        accept={ACCEPTED_IMAGE_TYPES.join(",")}
        disabled={uploading}
        aria-describedby={`${fileId}-hint`}
        onChange={(event) => void choose(event.currentTarget.files?.[0])}
        className="block w-full text-sm text-neutral-800 file:mr-3 file:rounded-md file:border-0 file:bg-brand-700 file:px-3 file:py-2 file:font-medium file:text-white hover:file:bg-brand-800"
      />
      <p id={`${fileId}-hint`} className={hintClass}>
        JPEG, PNG, WebP, GIF or AVIF, up to 10 MB; shown round, 96 pixels wide.
      </p>
      <div aria-live="polite">
        {uploading && <p className="text-sm font-medium text-brand-800">{pagesText.uploading}</p>}
      </div>
      {error && (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      )}
      <FieldError id={`${altId}-url-error`} message={urlError ? `${label} ${urlError}` : undefined} />
      {photo && (
        <div className="flex flex-col gap-1">
          <label htmlFor={altId} className={labelClass}>
            {labelOf("alt")}
          </label>
          <input
            id={altId}
            name={fieldPath([...path, "alt"])}
            type="text"
            value={photo.alt}
            aria-required
            aria-invalid={altError ? true : undefined}
            aria-describedby={`${altId}-count${altError ? ` ${altId}-error` : ""}`}
            onChange={(event) => update([...path, "alt"], event.target.value)}
            className={`${inputClass} ${altError ? "border-red-700" : ""}`}
          />
          <FieldError id={`${altId}-error`} message={altError ? `${labelOf("alt")} ${altError}` : undefined} />
          <p id={`${altId}-count`} className={hintClass}>
            {pagesText.count([...photo.alt].length, CONTENT_LIMITS.alt)}
          </p>
        </div>
      )}
    </div>
  );
}
