import { useEffect } from "react";
import { hydrateRoot } from "react-dom/client";
import { SITE_LAYER_ID } from "~/components/site/contact-store";
import { loadContactModal } from "~/components/site/contact-trigger";
import { HOVER_MEDIA, Tooltips, type TooltipImplementation } from "~/components/ui/tip";
import { ISLAND_ATTRIBUTE, ISLAND_PROPS_ATTRIBUTE } from "./island";
import { islands, pageIslands, type IslandName, type PageIslandName } from "./registry";

/**
 * The only script a public page loads at first (ADR 018): it hydrates the
 * page's islands, each as its own small React root. The menu, the contact
 * modal and the notices load when first used; tooltips load first where a
 * pointer can hover, since phones never show them.
 */
let pending = 0;

/** Marks <html data-hydrated> once every island has hydrated (tests and tools wait for it). */
function Hydrated() {
  useEffect(() => {
    pending -= 1;
    if (pending === 0) document.documentElement.dataset.hydrated = "true";
  }, []);
  return null;
}

/**
 * Radix's tooltip where a pointer can hover, loaded before hydrating: each
 * island then hydrates with the tooltips it keeps for the life of the page,
 * and no control is re-rendered into another tree later (ADR 025). Loaded
 * here, not by tip.tsx, which tip-radix.tsx takes its delays from.
 */
async function tooltipsForThisScreen(): Promise<TooltipImplementation | null> {
  if (!window.matchMedia(HOVER_MEDIA).matches) return null;
  try {
    return await import("~/components/ui/tip-radix");
  } catch (error) {
    console.warn("Tooltips could not be loaded", error);
    return null;
  }
}

/** A page's own island (registry.ts `pageIslands`): its code, loaded now; null when the name is unknown or it fails to load. */
async function loadPageIsland(name: string): Promise<React.ComponentType<object> | null> {
  const load = pageIslands[name as PageIslandName] as (() => Promise<React.ComponentType<object>>) | undefined;
  if (!load) {
    console.warn(`Unknown island "${name}"`);
    return null;
  }
  try {
    return await load();
  } catch (error) {
    console.warn(`The island "${name}" could not be loaded`, error);
    return null;
  }
}

async function hydrateIslands() {
  const tooltips = await tooltipsForThisScreen();
  const containers = [...document.querySelectorAll<HTMLElement>(`[${ISLAND_ATTRIBUTE}]`)];
  pending = containers.length;
  const hydrate = (container: HTMLElement, Component: React.ComponentType<object> | null) => {
    if (!Component) {
      pending -= 1;
      return;
    }
    const props = JSON.parse(container.getAttribute(ISLAND_PROPS_ATTRIBUTE) ?? "{}") as object;
    hydrateRoot(
      container,
      <>
        <Tooltips implementation={tooltips}>
          <Component {...props} />
        </Tooltips>
        <Hydrated />
      </>,
    );
  };
  const later: Array<Promise<void>> = [];
  for (const container of containers) {
    const name = container.getAttribute(ISLAND_ATTRIBUTE) ?? "";
    const Component = islands[name as IslandName] as React.ComponentType<object> | undefined;
    // The site's islands hydrate at once; a page's own wait for their code, loaded side by side.
    if (Component) hydrate(container, Component);
    else later.push(loadPageIsland(name).then((loaded) => hydrate(container, loaded)));
  }
  await Promise.all(later);
  // No island (or none known) to wait for.
  if (pending === 0) document.documentElement.dataset.hydrated = "true";
}

/**
 * F8 focuses the notification area (docs/product/interface.md#notices-and-tooltips). It lives in the layer loaded
 * with the contact form; until then, the first F8 loads that layer and
 * focuses its area. Once the layer is there, its own F8 handler does it.
 */
function focusNotificationsOnF8(event: KeyboardEvent) {
  if (event.code !== "F8") return;
  document.removeEventListener("keydown", focusNotificationsOnF8);
  if (document.getElementById(SITE_LAYER_ID)) return;
  loadContactModal().then(
    () => document.querySelector<HTMLElement>(`#${SITE_LAYER_ID} [role="region"] ol`)?.focus(),
    (error: unknown) => {
      console.warn("The notification area could not be loaded", error);
      document.addEventListener("keydown", focusNotificationsOnF8); // the next F8 tries again
    },
  );
}

document.addEventListener("keydown", focusNotificationsOnF8);
void hydrateIslands();
