import { useEffect, useRef, useState } from "react";
import { MAX_PASSWORD_LENGTH } from "~/lib/account";

/**
 * The administrator's current password, asked again in the same form as an
 * action a borrowed session must not take alone (ADR 046). Named `password`.
 * A refusal (wrong, throttled, busy) sits beside it, tied to it by
 * aria-describedby and announced; the field then takes the focus with what
 * was typed selected, so typing again replaces it and nothing else in the
 * form is lost. `attempt` is the answer that carried the error (a new object
 * for each submission), so a second identical refusal is announced again.
 */
export function CurrentPasswordField({
  id,
  label,
  error,
  attempt,
  className = "",
}: {
  id: string;
  label: string;
  error: string | undefined;
  attempt: unknown;
  className?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  // A new answer remounts the message, so a screen reader reads it even when the text is the same.
  const [shown, setShown] = useState({ attempt, count: 0 });
  if (shown.attempt !== attempt) setShown({ attempt, count: shown.count + 1 });
  useEffect(() => {
    if (!error) return;
    input.current?.focus();
    input.current?.select();
  }, [error, attempt]);
  const errorId = `${id}-error`;
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-sm font-semibold text-neutral-800">
        {label}
      </label>
      <input
        ref={input}
        id={id}
        name="password"
        type="password"
        autoComplete="current-password"
        required
        maxLength={MAX_PASSWORD_LENGTH}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className="h-11 w-full rounded-md border border-neutral-400 px-3 text-base aria-[invalid=true]:border-red-700"
      />
      {error && (
        <p key={shown.count} id={errorId} role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
