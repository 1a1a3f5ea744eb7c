/** The admin forms' field classes: the posts editor and the Pages editor look alike. */
export const inputClass =
  "w-full rounded-md border border-neutral-400 bg-white px-3 py-2 text-base text-neutral-900 focus:border-brand-600";
export const labelClass = "text-sm font-semibold text-neutral-800";
export const hintClass = "text-sm text-neutral-700";
