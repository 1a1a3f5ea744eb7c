/** The editor's field pieces and classes, shared by its sections (post-editor.tsx). */

export { hintClass, inputClass, labelClass } from "~/components/admin/field-classes";

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
