import { createContext, use, type ComponentType, type ReactElement, type ReactNode } from "react";

/** Tooltips open after 700 ms; moving between triggers within 300 ms skips the delay (docs/product/interface.md#notices-and-tooltips). */
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;
/** Screens with a pointer that can hover: the only ones that show (and load) tooltips. */
export const HOVER_MEDIA = "(any-hover: hover)";

export interface TipProps {
  label: string;
  children: ReactElement<Record<string, unknown>>;
  side?: "top" | "bottom" | "left" | "right";
}

/** What tip-radix.tsx exports: Radix's tooltip behind `Tip`, and the provider its delays need. */
export interface TooltipImplementation {
  TooltipProvider: ComponentType<{ children: ReactNode }>;
  Tip: ComponentType<TipProps>;
}

/**
 * Tooltips follow a hovering pointer, so only screens that have one load
 * Radix's tooltip (ADR 018, ADR 025). app/islands/hydrate-islands.tsx loads
 * it there before hydrating and hands it to every island through this
 * context; the server and touch screens have none.
 */
const TooltipContext = createContext<TooltipImplementation | null>(null);

/**
 * Gives an island's tree its tooltips, and one provider for their delays
 * (the skip between triggers is shared within the island). Without an
 * implementation, its children render alone.
 */
export function Tooltips({
  implementation,
  children,
}: {
  implementation: TooltipImplementation | null;
  children: ReactNode;
}) {
  if (!implementation) return children;
  return (
    <TooltipContext value={implementation}>
      <implementation.TooltipProvider>{children}</implementation.TooltipProvider>
    </TooltipContext>
  );
}

/**
 * A tooltip naming an icon-only control; the control keeps its own
 * aria-label. The control's markup is its own everywhere: with tooltips,
 * Radix adds behaviour and a portal, no attribute (tip-radix.tsx), so the
 * server's HTML hydrates as is on every screen.
 */
export function Tip(props: TipProps) {
  const implementation = use(TooltipContext);
  return implementation ? <implementation.Tip {...props} /> : props.children;
}
