import { useEffect, useRef } from "react";

/**
 * After an upload, focus goes to what it led to: the new import's report
 * (its heading) or the refusal. The Import button it left was disabled
 * meanwhile, which drops the focus, and a keyboard or screen-reader user
 * would otherwise start again from the top of the page.
 */
export function useFocusAfterUpload({
  uploading,
  settled,
  refused,
}: {
  uploading: boolean;
  /** No navigation in flight: the answer and the data it led to are on the page. */
  settled: boolean;
  refused: boolean;
}) {
  const report = useRef<HTMLHeadingElement>(null);
  const refusal = useRef<HTMLDivElement>(null);
  const pending = useRef(false);
  useEffect(() => {
    if (uploading) pending.current = true;
    if (!pending.current || !settled) return;
    pending.current = false;
    (refused ? refusal : report).current?.focus();
  }, [uploading, settled, refused]);
  return { report, refusal };
}
