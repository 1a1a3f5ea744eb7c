import { useState, type RefObject } from "react";

/**
 * A secret the site shows once (an invitation link, a webhook's signing
 * secret): read-only, selected on focus, with a Copy button that says when
 * it worked. Where the clipboard is refused, the text is selected instead.
 * The screen focuses it through `inputRef` when it appears.
 */
export function ShownOnceField({
  id,
  label,
  value,
  inputRef,
  copyLabel,
  copiedLabel,
}: {
  id: string;
  label: string;
  value: string;
  inputRef: RefObject<HTMLInputElement | null>;
  copyLabel: string;
  copiedLabel: string;
}) {
  const [copiedValue, setCopiedValue] = useState<string>();
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopiedValue(value);
    } catch {
      inputRef.current?.select();
    }
  }
  return (
    <>
      <label htmlFor={id} className="mt-3 block text-sm font-semibold text-neutral-800">
        {label}
      </label>
      <div className="mt-1 flex flex-wrap gap-2">
        <input
          ref={inputRef}
          id={id}
          readOnly
          value={value}
          onFocus={(event) => event.currentTarget.select()}
          className="h-11 w-full min-w-0 rounded-md border border-neutral-400 bg-white px-3 font-mono text-sm sm:w-auto sm:flex-1"
        />
        <button
          type="button"
          onClick={() => void copy()}
          className="h-11 rounded-md border border-brand-700 bg-white px-4 font-medium text-brand-800 hover:bg-brand-100"
        >
          {copiedValue === value ? copiedLabel : copyLabel}
        </button>
      </div>
    </>
  );
}
