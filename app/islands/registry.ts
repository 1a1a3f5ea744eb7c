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

const bookingIslands = () => import("~/components/site/booking/islands");

/**
 * Islands that only one or two pages show (the booking pages), rendered
 * through <PageIsland>: the browser loads their code when a page has one,
 * so it stays out of the first load of every other public page, whose
 * budget has little room left (ADR 018).
 */
export const pageIslands = {
  "booking-slots": () => bookingIslands().then((module) => module.SlotPicker),
  "submit-button": () => bookingIslands().then((module) => module.SubmitButton),
  "call-time": () => bookingIslands().then((module) => module.CallTime),
};

export type PageIslandName = keyof typeof pageIslands;
