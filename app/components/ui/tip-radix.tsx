import * as Tooltip from "@radix-ui/react-tooltip";
import { TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS, type TipProps } from "./tip";

/** Radix's tooltip behind `Tip`: its own chunk, loaded only where a pointer can hover (ADR 018, ADR 025). */
export function TooltipProvider({ children }: { children: React.ReactNode }) {
  return (
    <Tooltip.Provider delayDuration={TOOLTIP_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}>
      {children}
    </Tooltip.Provider>
  );
}

export function Tip({ label, children, side = "bottom" }: TipProps) {
  return (
    <Tooltip.Root>
      {/* Radix marks its trigger with data-state ("closed", "delayed-open"),
          for styling we do not use. Without it the control renders exactly
          as it does with no tooltip (the server, touch screens), so the page
          hydrates without a mismatch (tip.test.tsx checks this). */}
      <Tooltip.Trigger asChild data-state={undefined}>
        {children}
      </Tooltip.Trigger>
      <Tooltip.Portal>
        <Tooltip.Content
          side={side}
          sideOffset={6}
          className="z-[110] rounded bg-neutral-900 px-2 py-1 text-sm text-white shadow"
        >
          {label}
          <Tooltip.Arrow className="fill-neutral-900" />
        </Tooltip.Content>
      </Tooltip.Portal>
    </Tooltip.Root>
  );
}
