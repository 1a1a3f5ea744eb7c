/** About page copy (docs/product/interface.md#about-page). The contact details themselves are site settings (Admin > Settings). */

export const about = {
  title: "About",
  tagline: "Technology Solutions For People + By People",
  mission: {
    heading: "Our mission",
    body: [
      "We help small businesses, media clients, managed-cloud customers and research partners use technology with confidence.",
      "Good technology should feel simple to the people who use it. We build it carefully, explain it plainly, and stay around after launch.",
    ],
  },
  solutions: {
    heading: "Three ways we help",
    items: [
      {
        name: "For Media",
        summary: "Web design that turns visitors into customers.",
        features: [
          "Packages from $1,000",
          "Mobile responsive and accessible",
          "SEO, branding and blog management",
          "Hosting and training add-ons",
        ],
      },
      {
        name: "For Systems",
        summary: "Cloud and business platforms that run themselves.",
        features: [
          "Cloud governance for Azure",
          "Business intelligence dashboards",
          "AI-powered content automation",
          "Tenant onboarding in under 30 minutes",
        ],
      },
      {
        name: "For Research",
        summary: "Projects that serve our community.",
        features: [
          "IoT garden monitor",
          "Modular mobile workstation",
          "Community Wi-Fi network",
          "Tech innovation hub",
        ],
      },
    ],
  },
  whyOjai: {
    heading: "Why Ojai",
    intro: "Our valley shapes how we work.",
    values: [
      {
        name: "Community first",
        body: "We build for our neighbours, and we build technology that brings people together.",
      },
      {
        name: "Sustainable by design",
        body: "Efficient systems, long-lived hardware and software that is light on energy and budgets.",
      },
      {
        name: "Creative and independent",
        body: "A small-town studio with the craft of a big-city agency and none of the bureaucracy.",
      },
    ],
  },
  team: {
    heading: "Our team",
    members: [
      {
        role: "Founder and CEO",
        name: undefined as string | undefined,
        bio: "Leads strategy, cloud systems and research projects, and is the first call for every new client.",
      },
      {
        role: "Chief Creative Officer",
        name: undefined as string | undefined,
        bio: "Leads design, branding and photography, and makes sure every site looks and reads like its owner.",
      },
    ],
  },
  story: {
    heading: "Our story",
    body: [
      "We started by helping local businesses whose websites had fallen behind and whose IT had become a worry instead of a tool.",
      "Word spread, the projects grew into managed cloud platforms and research with partners, and the principle stayed the same: technology for people, by people.",
    ],
  },
  cta: {
    heading: "Ready to start?",
    body: "Tell us what you need. We'll answer with a plan and a price.",
    button: "Get Started",
  },
  contact: {
    heading: "Contact",
    email: "Email",
    phone: "Phone",
    location: "Location",
  },
};
