import { infoModals, type InfoModalContent } from "~/content/landing";
import { media, research, systems } from "~/content/landing-services";
import { Island } from "~/islands/island";
import type { LandingContent } from "~/lib/site-content";

/**
 * The landing page's three service sections. Their titles are the service
 * lines' names, fixed in app/content/landing.ts; everything else is the
 * published landing document (ADR 053).
 */

const sectionClass = "scroll-mt-16 px-4 py-20 outline-none";

/** A section's call to action: opens the contact modal (a hydrated island on a static section). */
function CtaButton({ label }: { label: string }) {
  return (
    <Island
      name="contact-button"
      props={{ label, className: "rounded-md bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800" }}
    />
  );
}

export function MediaSection({ content }: { content: LandingContent["media"] }) {
  return (
    <section id="media" tabIndex={-1} aria-labelledby="media-heading" className={`${sectionClass} bg-white`}>
      <div className="mx-auto max-w-6xl">
        <SectionHeading id="media-heading" title={media.title} intro={content.intro} />
        <h3 className="mt-12 text-2xl font-semibold">{content.packagesHeading}</h3>
        <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {content.packages.map((pkg, index) => (
            <li
              key={index}
              className={`flex flex-col rounded-lg border p-6 shadow-sm ${pkg.featured ? "border-brand-600 ring-2 ring-brand-600" : "border-neutral-200"}`}
            >
              <h4 className="text-lg font-bold tracking-wide">{pkg.name}</h4>
              <p className="mt-2 text-3xl font-bold text-brand-700">{pkg.price}</p>
              <FeatureList features={pkg.features} grow />
            </li>
          ))}
        </ul>
        <div className="mt-12 grid gap-10 lg:grid-cols-3">
          <div className="lg:col-span-2">
            <h3 className="text-2xl font-semibold">{content.addOnsHeading}</h3>
            <PriceList items={content.addOns} />
          </div>
          <div>
            <h3 className="text-2xl font-semibold">{content.aLaCarteHeading}</h3>
            <PriceList items={content.aLaCarte} />
          </div>
        </div>
        <SectionActions cta={content.cta} modal={infoModals[0]!} />
      </div>
    </section>
  );
}

function PriceList({ items }: { items: LandingContent["media"]["addOns"] }) {
  return (
    <dl className="mt-4 divide-y divide-neutral-200 rounded-lg border border-neutral-200">
      {items.map((item, index) => (
        <div key={index} className="flex items-baseline justify-between gap-4 px-4 py-3">
          <dt>
            {item.name}
            {item.note && <span className="text-neutral-700"> ({item.note})</span>}
          </dt>
          <dd className="whitespace-nowrap font-semibold text-brand-700">{item.price}</dd>
        </div>
      ))}
    </dl>
  );
}

export function SystemsSection({ content }: { content: LandingContent["systems"] }) {
  return (
    <section id="systems" tabIndex={-1} aria-labelledby="systems-heading" className={`${sectionClass} bg-brand-50`}>
      <div className="mx-auto max-w-6xl">
        <SectionHeading id="systems-heading" title={systems.title} intro={content.intro} />
        <p className="mt-6 inline-block rounded-full bg-brand-800 px-4 py-2 font-semibold text-white">
          {content.claim}
        </p>
        <ul className="mt-10 grid gap-6 md:grid-cols-3">
          {content.platforms.map((platform, index) => (
            <li key={index} className="rounded-lg bg-white p-6 shadow-sm">
              <h3 className="text-xl font-semibold">{platform.name}</h3>
              <p className="mt-2 text-neutral-800">{platform.summary}</p>
              <FeatureList features={platform.features} />
            </li>
          ))}
        </ul>
        <SectionActions cta={content.cta} modal={infoModals[1]!} />
      </div>
    </section>
  );
}

export function ResearchSection({ content }: { content: LandingContent["research"] }) {
  return (
    <section id="research" tabIndex={-1} aria-labelledby="research-heading" className={`${sectionClass} bg-white`}>
      <div className="mx-auto max-w-6xl">
        <SectionHeading id="research-heading" title={research.title} intro={content.intro} />
        <ul className="mt-10 grid gap-6 sm:grid-cols-2">
          {content.projects.map((project, index) => (
            <li key={index} className="rounded-lg border border-neutral-200 p-6">
              <h3 className="text-xl font-semibold">{project.name}</h3>
              <p className="mt-2 text-neutral-800">{project.summary}</p>
            </li>
          ))}
        </ul>
        <SectionActions cta={content.cta} modal={infoModals[2]!} />
      </div>
    </section>
  );
}

function SectionHeading({ id, title, intro }: { id: string; title: string; intro: string }) {
  return (
    <div className="max-w-3xl">
      <h2 id={id} className="text-3xl font-bold tracking-tight sm:text-4xl">
        {title}
      </h2>
      <p className="mt-4 text-lg text-neutral-800">{intro}</p>
    </div>
  );
}

/** A service's features, each behind a check mark; `grow` fills a package card's height. */
function FeatureList({ features, grow = false }: { features: readonly string[]; grow?: boolean }) {
  return (
    <ul className={`mt-4 ${grow ? "flex-1 " : ""}space-y-2 text-neutral-800`}>
      {features.map((feature, index) => (
        <li key={index} className="flex gap-2">
          <CheckIcon />
          <span>{feature}</span>
        </li>
      ))}
    </ul>
  );
}

/** The end of a service's section: the call to action and its "more" dialog. */
function SectionActions({ cta, modal }: { cta: string; modal: (typeof infoModals)[number] }) {
  return (
    <div className="mt-10 flex flex-wrap items-center gap-4">
      <CtaButton label={cta} />
      <InfoModal content={modal} />
    </div>
  );
}

function CheckIcon() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 20 20"
      className="mt-1 h-4 w-4 shrink-0 text-brand-600"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.5"
    >
      <path d="M4 10l4 4 8-8" />
    </svg>
  );
}

/**
 * The info modals exist (docs/product/interface.md#info-modals), with their lists and a button that hands
 * over to the contact modal, but the control that opens them is disabled.
 */
export const INFO_MODALS_ENABLED = false;

/** An info modal's trigger: an island (components/site/info-modal.tsx), like every interactive part. */
function InfoModal({ content }: { content: InfoModalContent }) {
  return <Island name="info-modal" props={{ content, enabled: INFO_MODALS_ENABLED }} />;
}
