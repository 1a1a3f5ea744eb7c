import type { ReactNode } from "react";
import { Island } from "~/islands/island";
import type { SiteSettings } from "~/lib/site-settings";

/** The frame of a subscriber's link pages (confirm, unsubscribe): the site's header and footer around one message. */
export function SignedLinkPage({
  company,
  children,
}: {
  company: { name: string; socialUrls: SiteSettings["socialUrls"] };
  children: ReactNode;
}) {
  return (
    <>
      <Island name="site-header" props={{ companyName: company.name }} />
      <main id="main" className="mx-auto w-full max-w-2xl px-4 py-12">
        {children}
      </main>
      <Island name="site-footer" props={{ companyName: company.name, socialUrls: company.socialUrls }} />
    </>
  );
}

export const buttonClass =
  "min-h-11 rounded-md bg-brand-700 px-5 py-2 font-semibold text-white hover:bg-brand-800 focus:outline-none focus:ring-2 focus:ring-brand-600 focus:ring-offset-2";
export const linkClass = "font-semibold text-brand-700 underline hover:text-brand-800";
