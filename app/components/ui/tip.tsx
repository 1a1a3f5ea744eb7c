import { cloneElement, type ComponentType, type ReactElement } from "react";

/** SPEC §9: tooltips open after 700 ms; moving between triggers within 300 ms skips the delay. */
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;
/** Screens with a pointer that can hover: the only ones that show (and load) tooltips. */
export const HOVER_MEDIA = "(any-hover: hover)";

export interface TipProps {
  label: string;
  children: ReactElement<Record<string, unknown>>;
  side?: "top" | "bottom" | "left" | "right";
}

interface TooltipImplementation {
  Provider: ComponentType<{ children: React.ReactNode }>;
  Tip: ComponentType<TipProps>;
}

/**
 * Radix's tooltip, once loaded. Tooltips follow a hovering pointer, so only
 * screens that have one load it (ADR 018), and they load it before
 * hydrating: every render, on the server and in the browser, then sees the
 * same implementation for the life of the page.
 */
let implementation: TooltipImplementation | null = null;

export async function loadTooltips(): Promise<void> {
  implementation ??= await import("./tip-radix");
}

/** Shares the tooltip delays (and the skip between triggers) across one hydrated part of the page. */
export function TooltipProvider({ children }: { children: React.ReactNode }) {
  if (implementation) return <implementation.Provider>{children}</implementation.Provider>;
  return <>{children}</>;
}

/**
 * A tooltip naming an icon-only control; the control keeps its own
 * aria-label. Without the tooltip code (the server, touch screens) the
 * control renders as Radix's closed trigger does, so hydration matches.
 */
export function Tip(props: TipProps) {
  if (implementation) return <implementation.Tip {...props} />;
  return cloneElement(props.children, { "data-state": "closed" });
}
