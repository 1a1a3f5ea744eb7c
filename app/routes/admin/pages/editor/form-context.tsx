/** The Pages editor's form state, shared by its fields without passing it down each level. */
import { createContext, useContext } from "react";
import type { Path } from "./form-model";

export interface FormState {
  document: unknown;
  /** Messages by field path (`media.packages[1].price`), without the path. */
  issues: Map<string, string>;
  update: (path: Path, value: unknown) => void;
}

export const FormContext = createContext<FormState | null>(null);

export function useForm(): FormState {
  const form = useContext(FormContext);
  if (!form) throw new Error("content fields outside a FormContext");
  return form;
}

/** The message beside a field, tied to it by aria-describedby. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="text-sm font-medium text-red-800">
      {message}
    </p>
  );
}
