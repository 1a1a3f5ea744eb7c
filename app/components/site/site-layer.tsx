import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import { NotifyProvider } from "~/components/ui/notify";
import { ContactLayer } from "./contact-modal";
import { SITE_LAYER_ID } from "./contact-store";

/**
 * The page's overlay layer: the contact modal and the notices it shows. A
 * client-only React root at the end of <body>, mounted when the contact
 * modal is first opened (ADR 018).
 */
export function mountSiteLayer(): void {
  const host = document.createElement("div");
  host.id = SITE_LAYER_ID;
  document.body.append(host);
  const root = createRoot(host);
  // Rendered at once, so the notification area exists when this returns (F8).
  flushSync(() =>
    root.render(
      <NotifyProvider>
        <ContactLayer />
      </NotifyProvider>,
    ),
  );
}
