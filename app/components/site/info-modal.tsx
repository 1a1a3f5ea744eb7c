import { useRef, useState } from "react";
import type { InfoModalContent } from "~/content/landing";
import { loadOnce } from "~/lib/load-once";

/** The dialog's code (Radix's dialog), loaded on first intent (pointer, focus, touch) or click. */
const loadInfoDialog = loadOnce(() => import("./info-dialog"));

/**
 * An info modal's trigger (docs/product/interface.md#info-modals), an island: the button is in the page's
 * HTML, and the dialog with its list and its hand-over to the contact modal
 * loads when first opened, so the landing page's first load does not carry
 * it. The trigger stays disabled (docs/product/interface.md#info-modals): the page passes `enabled: false`
 * (INFO_MODALS_ENABLED in landing-sections.tsx).
 */
export function InfoModal({ content, enabled }: { content: InfoModalContent; enabled: boolean }) {
  const [open, setOpen] = useState(false);
  const [Dialog, setDialog] = useState<(typeof import("./info-dialog"))["InfoDialog"] | null>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const preload = () => void loadInfoDialog().catch(() => {});

  const openDialog = async () => {
    try {
      const { InfoDialog } = await loadInfoDialog();
      setDialog(() => InfoDialog);
      setOpen(true);
    } catch (error) {
      console.warn("The info dialog could not be loaded", error);
    }
  };

  return (
    <>
      <button
        ref={trigger}
        type="button"
        disabled={!enabled}
        data-testid={`info-trigger-${content.id}`}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => void openDialog()}
        onPointerEnter={preload}
        onFocus={preload}
        onTouchStart={preload}
        className="rounded-md border border-neutral-400 px-4 py-2 font-medium text-neutral-800 disabled:cursor-not-allowed disabled:opacity-60"
      >
        {content.trigger}
      </button>
      {Dialog && <Dialog content={content} open={open} onOpenChange={setOpen} trigger={trigger} />}
    </>
  );
}
