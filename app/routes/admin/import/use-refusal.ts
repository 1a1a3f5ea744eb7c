import { useState } from "react";
import type { ImportRefusal } from "./actions.server";

/**
 * The last upload's refusal, kept until the next upload starts. React
 * Router forgets an action's answer at the next load, and a running
 * import's report is loaded again every few seconds: the owner would see
 * "An import is already running" vanish before reading it.
 */
export function useRefusal(answer: ImportRefusal | undefined, uploading: boolean): ImportRefusal | undefined {
  const [kept, setKept] = useState({ answer, shown: answer });
  // Adjusted while rendering (react.dev, "storing information from previous renders").
  if (answer !== kept.answer) setKept({ answer, shown: answer ?? kept.shown });
  else if (uploading && kept.shown) setKept({ answer, shown: undefined });
  return uploading ? undefined : kept.shown;
}
