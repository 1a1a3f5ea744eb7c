import { ContactButton } from "~/components/site/contact-button";
import { Hero } from "~/components/site/hero";
import { InfoModal } from "~/components/site/info-modal";
import { InsightsCarousel } from "~/components/site/insights-carousel";
import { Splash } from "~/components/site/intro";
import { PageStatus } from "~/components/site/page-status";
import { SiteFooter } from "~/components/site/site-footer";
import { SiteHeader } from "~/components/site/site-header";

/**
 * Every interactive part of a public page, by name (ADR 018). The server
 * renders each inside an <Island>; the browser hydrates it from here. An
 * island's props travel as JSON, and it uses no React Router hooks: the
 * public pages load no router.
 */
export const islands = {
  "site-header": SiteHeader,
  "site-footer": SiteFooter,
  splash: Splash,
  hero: Hero,
  insights: InsightsCarousel,
  "contact-button": ContactButton,
  "info-modal": InfoModal,
  "page-status": PageStatus,
};

export type IslandName = keyof typeof islands;
