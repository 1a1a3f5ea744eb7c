/**
 * The editor's keyboard save and its guards for unsaved changes: before the
 * tab closes or reloads, before an in-app navigation, and before the shell's
 * "View site" (docs/product/interface.md#blog-admin).
 */
import { useEffect, useEffectEvent, useRef } from "react";
import { useBlocker } from "react-router";
import { useConfirmLeave } from "~/components/admin/admin-shell";
import { LEAVE_CONFIRMATION } from "./post-draft";

/** Ctrl/Cmd+S saves (and never opens the browser's "save page" dialog here). */
export function useSaveShortcut(save: () => Promise<void>) {
  // An effect event: it always calls the latest save, without re-adding the listener.
  const saveFromShortcut = useEffectEvent(() => void save());
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "s") {
        event.preventDefault();
        saveFromShortcut();
      }
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
}

/** While `dirty`, leaving the screen asks LEAVE_CONFIRMATION first. */
export function useLeaveGuard(dirty: boolean) {
  // Unsaved changes: warn before the tab closes or reloads...
  const leaveConfirmed = useRef(false);
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (leaveConfirmed.current) return;
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [dirty]);

  // ...and before any in-app navigation (links, sign-out).
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    if (window.confirm(LEAVE_CONFIRMATION)) blocker.proceed();
    else blocker.reset();
  }, [blocker]);
  // ...and before leaving for the public site, a full page load that the blocker does not see.
  useConfirmLeave(() => {
    if (!dirty) return true;
    leaveConfirmed.current = window.confirm(LEAVE_CONFIRMATION);
    return leaveConfirmed.current;
  });
}
