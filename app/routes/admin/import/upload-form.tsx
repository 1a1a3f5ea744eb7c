import type { Ref } from "react";
import { Form } from "react-router";
import { hintClass, inputClass, labelClass } from "~/components/admin/field-classes";
import { importText as text } from "~/content/import";
import { IMPORT_FILE_FIELD, IMPORT_SITE_URL_FIELD, MAX_IMPORT_FILE_BYTES } from "~/lib/import";
import type { ImportRefusal } from "./actions.server";

const REFUSAL_ID = "import-refusal";

/**
 * "Upload an export": where each platform's export is found, the file
 * and the old site's address, and Import. A plain multipart form, so it
 * works without the page's script; a refusal is said above the fields
 * (role="alert", and the form's description) with the address kept.
 */
export function UploadForm({
  refusal,
  uploading,
  refusalRef,
}: {
  refusal: ImportRefusal | undefined;
  uploading: boolean;
  refusalRef: Ref<HTMLDivElement>;
}) {
  return (
    <section className="mt-6 rounded-lg border border-neutral-200 bg-white p-4">
      <h2 id="import-form-heading" className="text-xl font-semibold">
        {text.formHeading}
      </h2>
      <ul className="mt-2 flex max-w-prose list-disc flex-col gap-1 pl-5 text-sm text-neutral-700">
        <li>{text.wordpressHow}</li>
        <li>{text.ghostHow}</li>
      </ul>
      <div ref={refusalRef} tabIndex={-1} className="outline-none">
        <div role="alert" id={REFUSAL_ID}>
          {refusal && (
            <div className="mt-4 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-red-900">
              <p className="font-semibold">{text.refused}</p>
              <p className="break-words">{refusal.error}</p>
            </div>
          )}
        </div>
      </div>
      <Form
        method="post"
        encType="multipart/form-data"
        aria-labelledby="import-form-heading"
        aria-describedby={refusal ? REFUSAL_ID : undefined}
        className="mt-4 flex flex-col items-start gap-4"
      >
        <div className="flex w-full max-w-prose min-w-0 flex-col gap-1">
          <label htmlFor="import-file" className={labelClass}>
            {text.fileLabel}
          </label>
          <input
            id="import-file"
            type="file"
            name={IMPORT_FILE_FIELD}
            accept=".xml,.json"
            required
            aria-describedby="import-file-hint"
            onChange={(event) => {
              // Said before the upload: the server refuses a larger body before reading it.
              const file = event.currentTarget.files?.[0];
              event.currentTarget.setCustomValidity(file && file.size > MAX_IMPORT_FILE_BYTES ? text.tooLarge : "");
            }}
            className="max-w-full text-sm file:mr-3 file:h-11 file:rounded-md file:border file:border-neutral-400 file:bg-white file:px-4"
          />
          <p id="import-file-hint" className={hintClass}>
            {text.fileHint}
          </p>
        </div>
        <div className="flex w-full max-w-prose min-w-0 flex-col gap-1">
          <label htmlFor="import-site-url" className={labelClass}>
            {text.siteUrlLabel}
          </label>
          <input
            id="import-site-url"
            type="url"
            name={IMPORT_SITE_URL_FIELD}
            defaultValue={refusal?.siteUrl ?? ""}
            inputMode="url"
            autoComplete="url"
            spellCheck={false}
            aria-describedby="import-site-url-hint"
            className={`h-11 ${inputClass}`}
          />
          <p id="import-site-url-hint" className={hintClass}>
            {text.siteUrlHint}
          </p>
        </div>
        <button
          type="submit"
          disabled={uploading}
          className="h-11 rounded-md bg-brand-700 px-4 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
        >
          {uploading ? text.uploading : text.submit}
        </button>
      </Form>
    </section>
  );
}
