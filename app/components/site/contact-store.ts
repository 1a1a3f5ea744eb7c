/**
 * The global contact modal's state: one open/closed state for the whole page,
 * shared by the controls that open it (contact-trigger.ts, in the page's
 * first script) and the modal itself (contact-modal.tsx, loaded when first
 * wanted). Both import it; it imports neither, so it stays tiny.
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
  /** Remembers the control the modal opens from, to focus it again when the modal closes. */
  keepReturnFocus(element: HTMLElement | null) {
    openedFrom = element;
  },
};

/** The id of the layer's host element at the end of <body>. */
export const SITE_LAYER_ID = "site-layer";
