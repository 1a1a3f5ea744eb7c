/**
 * The original copy of the editable pages (ADR 053): what a new database
 * shows until the owner publishes a change, and what "Reset this section to
 * the original copy" puts back. Built from the copy modules beside it, so
 * the public pages with the default content are exactly what they were.
 */
import type { AboutContent, ContactContent, ContentDocuments, ContentName, LandingContent } from "~/lib/site-content";
import { about } from "./about";
import { humorousMessages } from "./contact";
import { media, research, systems } from "./landing-services";

function defaultLanding(): LandingContent {
  const priced = (items: ReadonlyArray<{ name: string; price: string; note?: string }>) =>
    items.map(({ name, price, note }) => ({ name, price, note: note ?? "" }));
  return {
    media: {
      intro: media.intro,
      packagesHeading: media.packagesHeading,
      packages: media.packages.map((pkg) => ({
        name: pkg.name,
        price: pkg.price,
        featured: "featured" in pkg && pkg.featured === true,
        features: [...pkg.features],
      })),
      addOnsHeading: media.addOnsHeading,
      addOns: priced(media.addOns),
      aLaCarteHeading: media.aLaCarteHeading,
      aLaCarte: priced(media.aLaCarte),
      cta: media.cta,
    },
    systems: {
      intro: systems.intro,
      claim: systems.claim,
      platforms: systems.platforms.map((platform) => ({ ...platform, features: [...platform.features] })),
      cta: systems.cta,
    },
    research: {
      intro: research.intro,
      projects: research.projects.map((project) => ({ ...project })),
      cta: research.cta,
    },
  };
}

function defaultAbout(): AboutContent {
  return {
    tagline: about.tagline,
    mission: { heading: about.mission.heading, paragraphs: [...about.mission.body] },
    solutions: {
      heading: about.solutions.heading,
      items: about.solutions.items.map((item) => ({ ...item, features: [...item.features] })),
    },
    values: {
      heading: about.whyOjai.heading,
      intro: about.whyOjai.intro,
      items: about.whyOjai.values.map((value) => ({ ...value })),
    },
    team: {
      heading: about.team.heading,
      members: about.team.members.map((member) => ({
        name: member.name ?? "",
        role: member.role,
        bio: member.bio,
        photo: null,
      })),
    },
    story: { heading: about.story.heading, paragraphs: [...about.story.body] },
    cta: { ...about.cta },
  };
}

function defaultContact(): ContactContent {
  return { messages: [...humorousMessages] };
}

/** A fresh copy of a page's original document (callers may change it). */
export function defaultContent<N extends ContentName>(name: N): ContentDocuments[N] {
  const build = { landing: defaultLanding, about: defaultAbout, contact: defaultContact }[name];
  return build() as ContentDocuments[N];
}
