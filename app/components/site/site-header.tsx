import { useEffect, useRef, useState } from "react";
import { navigation } from "~/content/navigation";
import { Tip } from "~/components/ui/tip";
import { loadOnce } from "~/lib/load-once";
import { Logo } from "./logo";

/** The bar turns from transparent green to black past this much scroll (docs/product/interface.md#navigation-bar-and-menu). */
const NAV_SCROLL_THRESHOLD_PX = 50;

/**
 * The fixed navigation bar with its full-screen menu (docs/product/interface.md#navigation-bar-and-menu). `overlay`
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
          <a href="/" className="flex items-center gap-2 text-lg font-semibold tracking-tight">
            <Logo />
            <span>{companyName}</span>
          </a>
          <MenuButton />
        </nav>
      </header>
      {!overlay && <div aria-hidden="true" className="h-16 shrink-0 bg-brand-900" />}
    </>
  );
}

/** The menu's code, loaded on first intent (pointer, focus, touch) or click. */
const loadMenu = loadOnce(() => import("./menu-overlay"));

function MenuButton() {
  const [open, setOpen] = useState(false);
  const [Overlay, setOverlay] = useState<(typeof import("./menu-overlay"))["MenuOverlay"] | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const preload = () => void loadMenu().catch(() => {});

  const openMenu = async () => {
    try {
      const { MenuOverlay } = await loadMenu();
      setOverlay(() => MenuOverlay);
      setOpen(true);
    } catch (error) {
      console.warn("The menu could not be loaded", error);
    }
  };

  return (
    <>
      <Tip label={navigation.openMenu}>
        <button
          ref={button}
          type="button"
          aria-label={navigation.openMenu}
          aria-haspopup="dialog"
          aria-expanded={open}
          onClick={() => void openMenu()}
          onPointerEnter={preload}
          onFocus={preload}
          onTouchStart={preload}
          className="rounded-md p-2 hover:bg-white/15"
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className="h-7 w-7"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <path d="M4 7h16M4 12h16M4 17h16" />
          </svg>
        </button>
      </Tip>
      {Overlay && <Overlay open={open} onOpenChange={setOpen} menuButton={button} />}
    </>
  );
}
