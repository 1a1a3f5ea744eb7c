import { useState } from "react";

/**
 * How many successful answers of the given intents a screen has seen,
 * counted per answer object: a form keyed by it is rebuilt from the stored
 * values after each such answer and only then, so a refused attempt or
 * another form's answer keeps what the owner typed.
 */
export function useAnswerCount(answer: { intent: string; ok: boolean } | undefined, intents: string[]): number {
  const [seen, setSeen] = useState<{ answer: unknown; count: number }>({ answer, count: 0 });
  if (answer === seen.answer) return seen.count;
  const count = seen.count + (answer?.ok === true && intents.includes(answer.intent) ? 1 : 0);
  // Adjusting state while rendering, as React's docs show for a value derived from a changed prop.
  setSeen({ answer, count });
  return count;
}
