/** Whether a publish date is still ahead, kept current as the clock passes it: the editor's "Scheduled" hint. */
import { useCallback, useSyncExternalStore } from "react";

/**
 * Whether an ISO date is still ahead. Read afresh at each render, like the
 * clock, and the component renders again when the date passes.
 */
export function useIsFuture(iso: string): boolean {
  const time = Date.parse(iso);
  const subscribe = useCallback(
    (onChange: () => void) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const arm = () => {
        const wait = time - Date.now();
        if (!(wait >= 0)) return onChange();
        // setTimeout waits at most 2^31 - 1 ms; a later date arms it again.
        timer = setTimeout(arm, Math.min(wait + 1, 2 ** 31 - 1));
      };
      arm();
      return () => clearTimeout(timer);
    },
    [time],
  );
  const isFuture = () => time > Date.now();
  return useSyncExternalStore(subscribe, isFuture, isFuture);
}
