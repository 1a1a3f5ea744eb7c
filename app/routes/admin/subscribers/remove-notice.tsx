import { useEffect, useRef } from "react";
import { subscribersAdminText as text } from "~/content/subscribers-admin";
import type { RemoveAnswer } from "./actions.server";

/**
 * What a removal did. The row and the button that had focus are gone, so
 * the notice takes focus and a screen reader reads it.
 */
export function RemoveNotice({ answer }: { answer: RemoveAnswer | undefined }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (answer) ref.current?.focus();
  }, [answer]);
  return (
    <div role="status">
      {answer && (
        <p
          ref={ref}
          tabIndex={-1}
          className={`mt-4 rounded-md border px-3 py-2 break-words ${
            answer.removed ? "border-green-300 bg-green-50 text-green-900" : "border-neutral-300 bg-neutral-50"
          }`}
        >
          {answer.removed ? text.removed(answer.email) : text.removedGone}
        </p>
      )}
    </div>
  );
}
