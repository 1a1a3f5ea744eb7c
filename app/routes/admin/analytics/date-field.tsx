/** One end of the custom period: a required UTC date the range form sends as `name`. */
export function DateField({ label, name, value }: { label: string; name: "from" | "to"; value: string }) {
  return (
    <label className="flex flex-col text-sm font-medium">
      {label}
      <input
        type="date"
        name={name}
        defaultValue={value}
        required
        className="mt-1 min-h-10 rounded-md border border-neutral-400 px-2"
      />
    </label>
  );
}
