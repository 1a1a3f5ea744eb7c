import { useEffect } from "react";
import { NotifyProvider } from "~/components/ui/notify";
import { TooltipProvider } from "~/components/ui/tip";
import { ContactProvider } from "./contact-modal";
import { markAppHydrated } from "./intro";

/** Site-wide interactive layer: notices, tooltips and the global contact modal. */
export function SiteUi({ children }: { children: React.ReactNode }) {
  useEffect(() => {
    markAppHydrated();
  }, []);
  return (
    <NotifyProvider>
      <TooltipProvider>
        <ContactProvider>{children}</ContactProvider>
      </TooltipProvider>
    </NotifyProvider>
  );
}
