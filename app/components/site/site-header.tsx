import * as Dialog from "@radix-ui/react-dialog";
import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { menuItems, navigation } from "~/content/navigation";
import { Tip } from "~/components/ui/tip";
import { useGoToSection } from "~/lib/scroll";
import { useContactModal } from "./contact-modal";
import { Logo } from "./logo";

/** The bar turns from transparent green to black past this much scroll (SPEC §9). */
export const NAV_SCROLL_THRESHOLD_PX = 50;

/**
 * The fixed navigation bar with its full-screen menu (SPEC §2). `overlay`
 * lets the landing hero run under the bar; other pages get a spacer.
 * `intro` fades it in after the splash.
 */
export function SiteHeader({
  companyName,
  overlay = false,
  intro = false,
}: {
  companyName: string;
  overlay?: boolean;
  intro?: boolean;
}) {
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const update = () => setScrolled(window.scrollY > NAV_SCROLL_THRESHOLD_PX);
    update();
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, []);

  return (
    <>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-[80] focus:rounded focus:bg-white focus:p-2 focus:text-black"
      >
        {navigation.skipLink}
      </a>
      <header
        data-testid="site-nav"
        data-scrolled={scrolled ? "true" : "false"}
        className={`fixed inset-x-0 top-0 z-50 text-white transition-colors duration-300 ${
          scrolled ? "bg-black" : "bg-brand-800/90 backdrop-blur"
        } ${intro ? "intro-nav" : ""}`}
      >
        <nav aria-label="Main" className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
          <Link to="/" className="flex items-center gap-2 text-lg font-semibold tracking-tight">
            <Logo />
            <span>{companyName}</span>
          </Link>
          <MenuOverlay />
        </nav>
      </header>
      {!overlay && <div aria-hidden="true" className="h-16 shrink-0 bg-brand-900" />}
    </>
  );
}

type PendingAction = { kind: "section"; id: string } | { kind: "contact" } | null;

function MenuOverlay() {
  const [open, setOpen] = useState(false);
  const pending = useRef<PendingAction>(null);
  const goToSection = useGoToSection();
  const { openContact } = useContactModal();

  const closeThen = (action: PendingAction) => {
    pending.current = action;
    setOpen(false);
  };

  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Tip label={navigation.openMenu}>
        <Dialog.Trigger
          aria-label={navigation.openMenu}
          className="rounded-md p-2 hover:bg-white/15"
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-7 w-7" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="M4 7h16M4 12h16M4 17h16" />
          </svg>
        </Dialog.Trigger>
      </Tip>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[60] bg-neutral-950" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed inset-0 z-[60] flex flex-col items-center justify-center overflow-y-auto p-6 text-white"
          onCloseAutoFocus={(event) => {
            const action = pending.current;
            pending.current = null;
            if (!action) return;
            event.preventDefault();
            if (action.kind === "contact") openContact();
            else goToSection(action.id);
          }}
        >
          <Dialog.Title className="sr-only">{navigation.menuTitle}</Dialog.Title>
          <Dialog.Close
            aria-label={navigation.closeMenu}
            className="absolute right-4 top-3 rounded-md p-2 hover:bg-white/15"
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-7 w-7" fill="none" stroke="currentColor" strokeWidth="2">
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
                  <Link to={item.to} className="hover:text-brand-100 hover:underline" onClick={() => setOpen(false)}>
                    {item.label}
                  </Link>
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
