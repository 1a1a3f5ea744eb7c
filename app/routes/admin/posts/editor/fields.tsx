/** The editor's field pieces and classes, shared by its sections (post-editor.tsx). */

export const inputClass =
  "w-full rounded-md border border-neutral-400 bg-white px-3 py-2 text-base text-neutral-900 focus:border-brand-600";
export const labelClass = "text-sm font-semibold text-neutral-800";
export const hintClass = "text-sm text-neutral-700";

export function Required() {
  return (
    // aria-required on the field tells assistive technology; the star is for the eye.
    <span aria-hidden="true" className="font-normal text-red-800">
      {" *"}
    </span>
  );
}

export /** "42 of about 60 characters shown", counted as search engines count them (code points). */
function CharacterCount({ value, shown }: { value: string | null; shown: number }) {
  const length = [...(value ?? "")].length;
  if (length === 0) return null;
  return (
    <span className={length > shown ? "font-medium text-amber-800" : undefined}>
      {length} characters{length > shown ? `: past about ${shown}, search results cut it short.` : "."}
    </span>
  );
}
