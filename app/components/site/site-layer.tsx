import { createRoot } from "react-dom/client";
import { NotifyProvider } from "~/components/ui/notify";
import { ContactLayer } from "./contact-modal";

/**
 * The page's overlay layer: the contact modal and the notices it shows. A
 * client-only React root at the end of <body>, mounted when the contact
 * modal is first opened (ADR 018).
 */
export function mountSiteLayer(): void {
  const host = document.createElement("div");
  host.id = "site-layer";
  document.body.append(host);
  createRoot(host).render(
    <NotifyProvider>
      <ContactLayer />
    </NotifyProvider>,
  );
}
