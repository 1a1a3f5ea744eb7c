/**
 * Landing page copy that stays in code (docs/product/interface.md#landing-page): the hero, Latest Insights and
 * the info modals. The three service sections' original copy and prices are in landing-services.ts; the owner
 * edits them in Admin > Pages (ADR 053).
 */

export type SectionId = "hero" | "media" | "systems" | "research" | "solutions";

export const hero = {
  eyebrow: "Ojai, California",
  headline: "Technology Solutions For People + By People",
  lead: "Websites that win customers, cloud platforms that run themselves, and research that serves our community.",
  buttons: [
    { label: "For Media", target: "media" },
    { label: "For Systems", target: "systems" },
    { label: "For Research", target: "research" },
  ] satisfies Array<{ label: string; target: SectionId }>,
  scrollHint: "Scroll to For Media",
  contact: "Get Started",
};

export const insights = {
  title: "Latest Insights",
  intro: "Notes from our work in media, systems and research.",
  carouselLabel: "Latest Insights articles",
  maxPosts: 5,
  loading: "Loading latest insights...",
  empty: "No blog posts available yet.",
  allArticles: "Read all articles",
  readArticle: "Read article",
  counter: (n: number, total: number) => `${n} of ${total} articles`,
  previous: "Previous article",
  next: "Next article",
  share: (title: string) => `Share "${title}"`,
};

/** The info modals exist (docs/product/interface.md#info-modals) but their trigger is disabled, so visitors never see them. */
export interface InfoModalContent {
  id: "media" | "systems" | "research";
  title: string;
  description: string;
  items: string[];
  trigger: string;
  cta: string;
}

export const infoModals: InfoModalContent[] = [
  {
    id: "media",
    title: "For Media",
    description: "What a web design project with us includes.",
    items: [
      "Discovery call and content plan",
      "Design from your brand assets",
      "Build, test and launch",
      "Training so you can edit it yourself",
    ],
    trigger: "More about For Media",
    cta: "Get Started",
  },
  {
    id: "systems",
    title: "For Systems",
    description: "How we run your cloud and business platforms.",
    items: [
      "Assessment of your current setup",
      "Tenant onboarding in under 30 minutes",
      "Monitoring and monthly reports",
      "Support from people you know",
    ],
    trigger: "More about For Systems",
    cta: "Get Started",
  },
  {
    id: "research",
    title: "For Research",
    description: "How to collaborate on or invest in our projects.",
    items: [
      "Pilot sites and partners",
      "Open data from our sensors",
      "Grants and investment",
      "Student and volunteer projects",
    ],
    trigger: "More about For Research",
    cta: "Get Started",
  },
];
