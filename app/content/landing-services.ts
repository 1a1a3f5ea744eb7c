/**
 * The landing page's three service sections as first written (docs/product/interface.md#landing-page), with
 * the exact prices of docs/product/interface.md#prices: the original copy of the landing document
 * (site-content-defaults.ts, ADR 053). The section titles are the service lines' names and stay as they are;
 * the rest is edited in Admin > Pages. Apart from landing.ts, so the islands' code never carries it.
 */

export interface WebDesignPackage {
  name: string;
  price: string;
  features: string[];
  featured?: boolean;
}

export interface PricedItem {
  name: string;
  price: string;
  note?: string;
}

export const media = {
  title: "For Media",
  intro:
    "Web design for small businesses and media clients: fast, accessible sites built from your brand, with clear packages and no surprises.",
  packagesHeading: "Web design packages",
  packages: [
    {
      name: "RE-DESIGN",
      price: "$1,000",
      features: [
        "Review of your current site",
        "Redesign from existing assets",
        "Mobile responsive",
        "One revision round",
      ],
    },
    {
      name: "ESSENTIAL",
      price: "$2,500",
      features: [
        "10 custom photos",
        "2 hrs graphic design",
        "Technical and design revision rounds",
        "Contact forms and submissions",
        "Basic SEO",
      ],
    },
    {
      name: "PROFESSIONAL",
      price: "$3,500",
      featured: true,
      features: [
        "10 photos",
        "5 hrs graphic design",
        "Advanced contact/booking",
        "Advanced SEO",
        "Branding and style guide",
        "Easy blog management",
      ],
    },
    {
      name: "ENTERPRISE",
      price: "$5,500+",
      features: [
        "E-commerce",
        "API and CRM integrations",
        "Advanced branding and content strategy",
        "Fully customizable",
        "Priority support and launch help",
      ],
    },
  ] satisfies WebDesignPackage[],
  addOnsHeading: "Add-ons",
  addOns: [
    { name: "Site Hosting", price: "$20/month" },
    { name: "Blog Generation", price: "$200/blog" },
    { name: "Logo Design", price: "$500", note: "3 concepts" },
    { name: "E-Commerce Module", price: "$2,000" },
    { name: "Stock Photography Sourcing", price: "$300", note: "up to 10 photos" },
    { name: "Photography Session", price: "$1,000" },
    { name: "Blog Setup + Training", price: "$500" },
    { name: "Training Session", price: "$300/session" },
  ] satisfies PricedItem[],
  aLaCarteHeading: "A la carte",
  aLaCarte: [
    { name: "Payment Gateway", price: "$1,200" },
    { name: "Inventory/Order Management", price: "$1,200" },
  ] satisfies PricedItem[],
  cta: "Start your project",
};

export interface Platform {
  name: string;
  summary: string;
  features: string[];
}

export const systems = {
  title: "For Systems",
  intro:
    "Managed cloud and business platforms that keep small and medium organisations running without a full IT department.",
  claim: "Tenant onboarding in under 30 minutes.",
  platforms: [
    {
      name: "Cloud Governance Platform",
      summary: "Azure management with policies, cost control and security baselines applied from day one.",
      features: ["Automated tenant onboarding", "Policy and compliance baselines", "Cost and usage reporting"],
    },
    {
      name: "Business Intelligence Dashboard",
      summary: "One dashboard for the numbers a small or medium business actually runs on.",
      features: ["Connects to the tools you already use", "Daily refreshed reports", "Shareable views for your team"],
    },
    {
      name: "AI-Powered Content Studio",
      summary: "Content automation for social media: plan, draft and schedule posts in your brand's voice.",
      features: ["Drafts in your brand voice", "Scheduling across networks", "Human review before anything posts"],
    },
  ] satisfies Platform[],
  cta: "Talk to us about your systems",
};

export interface ResearchProject {
  name: string;
  summary: string;
}

export const research = {
  title: "For Research",
  intro: "Projects we run with collaborators and investors, close to home and open to partners.",
  projects: [
    {
      name: "IoT Garden Monitor",
      summary:
        "Low-power sensors that report soil moisture, light and temperature so gardens get water only when they need it.",
    },
    {
      name: "Modular Mobile Workstation",
      summary: "A rugged, reconfigurable workstation for field work, events and pop-up offices.",
    },
    {
      name: "Community Wi-Fi Network",
      summary: "Affordable, resilient connectivity for our local town, built with and for its residents.",
    },
    {
      name: "Tech Innovation Hub",
      summary: "A place for local makers, students and businesses to learn, prototype and launch.",
    },
  ] satisfies ResearchProject[],
  cta: "Collaborate with us",
};
