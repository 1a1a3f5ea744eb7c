/**
 * The global contact modal (SPEC §2, §4): one open/closed state for the whole
 * page, which every "Get Started" control opens. Its code (form, Radix dialog,
 * notices) is loaded the first time it is wanted (ADR 018), so this module
 * stays tiny.
 */
type Listener = () => void;

const listeners = new Set<Listener>();
let open = false;
/** Where focus was when the modal opened, to return there when it closes. */
let openedFrom: HTMLElement | null = null;

export const contactModalState = {
  isOpen: () => open,
  // Arrow functions: they are passed around unbound (useSyncExternalStore, onOpenChange).
  setOpen: (next: boolean) => {
    if (open === next) return;
    open = next;
    for (const listener of listeners) listener();
  },
  subscribe: (listener: Listener) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
  /** The element to focus after closing (the control that opened the modal). */
  takeReturnFocus(): HTMLElement | null {
    const element = openedFrom;
    openedFrom = null;
    return element?.isConnected ? element : null;
  },
};

/** The id of the layer's host element at the end of <body>. */
export const SITE_LAYER_ID = "site-layer";

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
  openedFrom = active instanceof HTMLElement && active !== document.body ? active : null;
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
