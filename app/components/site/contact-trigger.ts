import { contactModalState } from "./contact-store";

/**
 * What opens the global contact modal, which every "Get Started" control
 * opens (ADR 018): its code (form, Radix dialog, notices) is loaded the first
 * time it is wanted, or sooner when a visitor points at a contact control.
 * The state it opens lives in contact-store.ts, which the loaded modal reads
 * too; the modal's code never imports this loader.
 */
let layer: Promise<void> | null = null;

/** Loads and mounts the contact modal and the notices; started early when a visitor points at a contact control. */
export function loadContactModal(): Promise<void> {
  layer ??= import("./site-layer")
    .then((module) => module.mountSiteLayer())
    .catch((error: unknown) => {
      layer = null; // a later click tries again
      throw error;
    });
  return layer;
}

export function openContact(): void {
  const active = document.activeElement;
  contactModalState.keepReturnFocus(active instanceof HTMLElement && active !== document.body ? active : null);
  contactModalState.setOpen(true);
  loadContactModal().catch((error: unknown) => {
    contactModalState.setOpen(false);
    console.warn("The contact form could not be loaded", error);
  });
}

/** Props for any control that opens the contact modal: opens it, and starts loading its code on intent. */
export const contactTrigger = {
  onClick: openContact,
  onPointerEnter: () => void loadContactModal().catch(() => {}),
  onFocus: () => void loadContactModal().catch(() => {}),
  onTouchStart: () => void loadContactModal().catch(() => {}),
};
