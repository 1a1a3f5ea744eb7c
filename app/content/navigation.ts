import type { SectionId } from "./landing";

/** The full-screen menu (docs/product/interface.md#navigation-bar-and-menu). */
export type MenuItem =
  | { label: string; kind: "section"; target: SectionId }
  | { label: string; kind: "link"; to: string }
  | { label: string; kind: "contact" };

export const menuItems: MenuItem[] = [
  { label: "HOME", kind: "section", target: "hero" },
  { label: "FOR MEDIA", kind: "section", target: "media" },
  { label: "FOR SYSTEMS", kind: "section", target: "systems" },
  { label: "FOR RESEARCH", kind: "section", target: "research" },
  { label: "BLOG", kind: "link", to: "/blog" },
  { label: "CONTACT", kind: "contact" },
];

export const navigation = {
  openMenu: "Open menu",
  closeMenu: "Close menu",
  menuTitle: "Menu",
  skipLink: "Skip to content",
};

/** Footer (docs/product/interface.md#footer). The services links scroll to the element with id "services". */
export const footer = {
  tagline: "Technology Solutions For People + By People",
  servicesHeading: "Services",
  services: ["For Media", "For Systems", "For Research"],
  servicesTarget: "services",
  companyHeading: "Company",
  company: [
    { label: "About", kind: "link", to: "/about" },
    { label: "Blog", kind: "link", to: "/blog" },
    { label: "Contact", kind: "contact" },
    { label: "Privacy", kind: "contact" },
  ] as Array<{ label: string; kind: "link"; to: string } | { label: string; kind: "contact" }>,
  socialHeading: "Follow us",
  /** Three social icon links with empty targets (docs/product/interface.md#footer). */
  social: [
    { label: "Facebook", icon: "facebook" },
    { label: "Instagram", icon: "instagram" },
    { label: "LinkedIn", icon: "linkedin" },
  ] as const,
  copyright: (company: string) => `© 2025 ${company}. All rights reserved.`,
};
