import * as Dialog from "@radix-ui/react-dialog";
import { useRef } from "react";
import { menuItems, navigation } from "~/content/navigation";
import { goToSection } from "~/lib/scroll";
import { openContact } from "./contact-trigger";

type PendingAction = { kind: "section"; id: string } | { kind: "contact" } | null;

/**
 * The full-screen menu (docs/product/interface.md#navigation-bar-and-menu): HOME and the three sections scroll, BLOG
 * links, CONTACT opens the contact modal. Its own chunk, loaded when the menu
 * is first wanted (ADR 018); the menu button lives in the header.
 */
export function MenuOverlay({
  open,
  onOpenChange,
  menuButton,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  menuButton: React.RefObject<HTMLButtonElement | null>;
}) {
  const pending = useRef<PendingAction>(null);
  const closeThen = (action: PendingAction) => {
    pending.current = action;
    onOpenChange(false);
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[60] bg-neutral-950" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed inset-0 z-[60] flex flex-col items-center justify-center overflow-y-auto p-6 text-white"
          onCloseAutoFocus={(event) => {
            // Focus returns to the menu button, then the chosen item acts.
            event.preventDefault();
            const action = pending.current;
            pending.current = null;
            if (action?.kind !== "section") menuButton.current?.focus();
            if (action?.kind === "contact") openContact();
            else if (action?.kind === "section") goToSection(action.id);
          }}
        >
          <Dialog.Title className="sr-only">{navigation.menuTitle}</Dialog.Title>
          <Dialog.Close
            aria-label={navigation.closeMenu}
            className="absolute right-4 top-3 rounded-md p-2 hover:bg-white/15"
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="h-7 w-7"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            >
              <path d="M6 6l12 12M18 6L6 18" />
            </svg>
          </Dialog.Close>
          <ul className="flex flex-col items-center gap-6 text-center text-3xl font-bold tracking-wide sm:text-4xl">
            {menuItems.map((item) => (
              <li key={item.label}>
                {item.kind === "section" ? (
                  <a
                    href={`/#${item.target}`}
                    className="hover:text-brand-100 hover:underline"
                    onClick={(event) => {
                      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
                      event.preventDefault();
                      closeThen({ kind: "section", id: item.target });
                    }}
                  >
                    {item.label}
                  </a>
                ) : item.kind === "link" ? (
                  <a href={item.to} className="hover:text-brand-100 hover:underline">
                    {item.label}
                  </a>
                ) : (
                  <button
                    type="button"
                    className="font-bold tracking-wide hover:text-brand-100 hover:underline"
                    onClick={() => closeThen({ kind: "contact" })}
                  >
                    {item.label}
                  </button>
                )}
              </li>
            ))}
          </ul>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
