import * as Dialog from "@radix-ui/react-dialog";
import { useRef } from "react";
import type { InfoModalContent } from "~/content/landing";
import { openContact } from "./contact-trigger";

/**
 * An info modal (docs/product/interface.md#info-modals): its description and list, and a button that
 * closes it and opens the contact modal. Escape or a click on the backdrop
 * closes it; page scrolling is locked while it is open (Radix's modal
 * dialog). Its own chunk, loaded by the trigger island (info-modal.tsx).
 */
export function InfoDialog({
  content,
  open,
  onOpenChange,
  trigger,
}: {
  content: InfoModalContent;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger: React.RefObject<HTMLButtonElement | null>;
}) {
  const contactNext = useRef(false);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay data-testid="info-backdrop" className="fixed inset-0 z-[70] bg-black/60" />
        <Dialog.Content
          onCloseAutoFocus={(event) => {
            // No Radix trigger opened it: focus goes back to the island's
            // button, then the contact modal opens if that is why it closed
            // (and returns focus to that button when it closes in turn).
            event.preventDefault();
            trigger.current?.focus();
            if (contactNext.current) {
              contactNext.current = false;
              openContact();
            }
          }}
          className="fixed left-1/2 top-1/2 z-[70] max-h-[90dvh] w-[calc(100%-1.5rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg bg-white p-6 shadow-xl"
        >
          <Dialog.Title className="text-2xl font-bold">{content.title}</Dialog.Title>
          <Dialog.Description className="mt-2 text-neutral-800">{content.description}</Dialog.Description>
          <ul className="mt-4 list-disc space-y-1 pl-5">
            {content.items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
          <button
            type="button"
            className="mt-6 rounded-md bg-brand-700 px-4 py-2 font-semibold text-white"
            onClick={() => {
              contactNext.current = true;
              onOpenChange(false);
            }}
          >
            {content.cta}
          </button>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
