import { footer } from "~/content/navigation";
import type { SocialUrls } from "~/lib/site-settings";
import { Tip } from "~/components/ui/tip";
import { goToSection } from "~/lib/scroll";
import { contactTrigger } from "./contact-trigger";
import { SubscribeForm } from "./subscribe-form";

const linkClass = "text-left hover:text-white hover:underline";

export function SiteFooter({
  companyName,
  socialUrls,
  intro = false,
}: {
  companyName: string;
  /** The owner's profiles (Settings); one not set keeps the empty target (docs/product/interface.md#footer). */
  socialUrls?: SocialUrls;
  intro?: boolean;
}) {
  return (
    <footer id="footer" className={`w-full bg-neutral-950 text-neutral-300 ${intro ? "intro-content" : ""}`}>
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 sm:grid-cols-2 lg:grid-cols-[minmax(0,1.1fr)_minmax(0,0.8fr)_minmax(0,0.8fr)_minmax(0,0.9fr)_minmax(0,1.9fr)]">
        <div>
          <p className="text-lg font-semibold text-white">{companyName}</p>
          <p className="mt-2 text-sm">{footer.tagline}</p>
        </div>
        <nav aria-label={footer.servicesHeading}>
          <h2 className="text-sm font-semibold uppercase tracking-wide text-white">{footer.servicesHeading}</h2>
          <ul className="mt-3 space-y-2 text-sm">
            {footer.services.map((label) => (
              <li key={label}>
                <a
                  href={`/#${footer.servicesTarget}`}
                  className={linkClass}
                  onClick={(event) => {
                    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
                    event.preventDefault();
                    goToSection(footer.servicesTarget);
                  }}
                >
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-label={footer.companyHeading}>
          <h2 className="text-sm font-semibold uppercase tracking-wide text-white">{footer.companyHeading}</h2>
          <ul className="mt-3 space-y-2 text-sm">
            {footer.company.map((item) => (
              <li key={item.label}>
                {item.kind === "link" ? (
                  <a href={item.to} className={linkClass}>
                    {item.label}
                  </a>
                ) : (
                  <button type="button" className={linkClass} {...contactTrigger}>
                    {item.label}
                  </button>
                )}
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2 className="text-sm font-semibold uppercase tracking-wide text-white">{footer.socialHeading}</h2>
          <ul className="mt-3 flex gap-3">
            {footer.social.map((item) => (
              <li key={item.label}>
                <Tip label={item.label} side="top">
                  {/* A profile not set in Settings keeps the empty target (docs/product/interface.md#footer); the footer test checks href="#" */}
                  <a
                    href={socialUrls?.[item.icon] ?? "#"}
                    rel={socialUrls?.[item.icon] ? "me noopener" : undefined}
                    aria-label={item.label}
                    className="flex h-10 w-10 items-center justify-center rounded-full bg-white/10 text-white hover:bg-white/20"
                  >
                    <SocialIcon name={item.icon} />
                  </a>
                </Tip>
              </li>
            ))}
          </ul>
        </div>
        {/* The newsletter's sign-up (ADR 072): a plain form, posted to /newsletter with or without this island's script. */}
        <SubscribeForm
          idPrefix="footer-newsletter"
          tone="dark"
          landmark={false}
          className="sm:col-span-2 lg:col-span-1"
        />
      </div>
      <p className="border-t border-white/10 px-4 py-5 text-center text-sm">{footer.copyright(companyName)}</p>
    </footer>
  );
}

function SocialIcon({ name }: { name: "facebook" | "instagram" | "linkedin" }) {
  const common = { "aria-hidden": true, viewBox: "0 0 24 24", className: "h-5 w-5" } as const;
  if (name === "facebook")
    return (
      <svg {...common} fill="currentColor">
        <path d="M14 8h3V4h-3c-2.8 0-4 1.7-4 4.3V10H7v4h3v8h4v-8h3l1-4h-4V8.6c0-.4.3-.6.6-.6z" />
      </svg>
    );
  if (name === "instagram")
    return (
      <svg {...common} fill="none" stroke="currentColor" strokeWidth="2">
        <rect x="3" y="3" width="18" height="18" rx="5" />
        <circle cx="12" cy="12" r="4" />
        <circle cx="17.5" cy="6.5" r="1" fill="currentColor" />
      </svg>
    );
  return (
    <svg {...common} fill="currentColor">
      <path d="M4 9h4v12H4zM6 3a2 2 0 110 4 2 2 0 010-4zM10 9h3.8v1.7h.1c.5-1 1.8-2 3.7-2 4 0 4.4 2.6 4.4 6V21h-4v-5.6c0-1.4 0-3.1-1.9-3.1s-2.2 1.5-2.2 3V21h-4z" />
    </svg>
  );
}
