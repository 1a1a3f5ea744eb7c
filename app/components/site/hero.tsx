import { useEffect } from "react";
import { hero } from "~/content/landing";
import { scrollToHashSections, scrollToSection } from "~/lib/scroll";
import { ContactButton } from "./contact-button";

/** The landing hero (docs/product/interface.md#hero): headline, three buttons and a down arrow that scroll to their sections. */
export function Hero() {
  // On / or /home, a hash in the URL scrolls to its section after 100 ms (docs/product/interface.md#section-scrolling).
  useEffect(scrollToHashSections, []);
  return (
    <section
      id="hero"
      tabIndex={-1}
      aria-labelledby="hero-heading"
      className="relative flex min-h-[100svh] scroll-mt-16 flex-col items-center justify-center bg-gradient-to-br from-brand-900 via-brand-800 to-brand-600 px-4 pb-24 pt-28 text-center text-white outline-none"
    >
      <p className="text-sm font-semibold uppercase tracking-[0.2em] text-brand-100">{hero.eyebrow}</p>
      <h1 id="hero-heading" className="mt-4 max-w-4xl text-4xl font-bold tracking-tight sm:text-6xl">
        {hero.headline}
      </h1>
      <p className="mt-6 max-w-2xl text-lg text-brand-50 sm:text-xl">{hero.lead}</p>
      <div className="mt-10 flex flex-wrap justify-center gap-3">
        {hero.buttons.map((button) => (
          <button
            key={button.target}
            type="button"
            onClick={() => scrollToSection(button.target, { focus: true })}
            className="rounded-full border-2 border-white px-6 py-3 font-semibold hover:bg-white hover:text-brand-900"
          >
            {button.label}
          </button>
        ))}
      </div>
      <ContactButton
        label={hero.contact}
        className="mt-6 font-semibold text-white underline underline-offset-4 hover:text-brand-100"
      />
      <button
        type="button"
        aria-label={hero.scrollHint}
        title={hero.scrollHint}
        onClick={() => scrollToSection("media", { focus: true })}
        className="absolute bottom-6 left-1/2 -translate-x-1/2 rounded-full p-2 hover:bg-white/15 scroll-hint"
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="h-8 w-8"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <path d="M6 9l6 6 6-6" />
        </svg>
      </button>
    </section>
  );
}
