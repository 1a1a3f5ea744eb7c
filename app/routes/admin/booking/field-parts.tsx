/**
 * What the Booking screen's fields share: the look of a field to fix, the
 * message beside it, and the list of notes a field is described by.
 */
import { inputClass } from "~/components/admin/field-classes";

/** The admin's field look without its full width: each field here is as wide as its value needs. */
export const fieldClass = `${inputClass.replace("w-full ", "")} aria-[invalid=true]:border-red-700 aria-[invalid=true]:ring-1 aria-[invalid=true]:ring-red-700`;

/** The id of the message beside the field `id`. */
export const errorId = (id: string) => `${id}-error`;

/** `aria-describedby` of a field: its hint and its message, when it has them. */
export const describedBy = (...ids: Array<string | false | undefined>) => ids.filter(Boolean).join(" ") || undefined;

/** The field's props for its message: marked to fix, and described by it. */
export function invalidProps(id: string, error: string | undefined, hint?: string) {
  return {
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy(hint, error && errorId(id)),
  };
}

export function FieldError({ id, error }: { id: string; error: string | undefined }) {
  if (!error) return null;
  return (
    <p id={errorId(id)} className="text-sm font-medium text-red-800">
      {error}
    </p>
  );
}
