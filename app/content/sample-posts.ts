/**
 * Posts added to an empty database at first start (SEED_SAMPLE_POSTS=true),
 * so a new site shows its blog working. The administrator edits or deletes them.
 */
export interface SamplePost {
  title: string;
  slug: string;
  excerpt: string;
  category: string;
  readTime: string;
  /** Days before the first start that the post counts as published. */
  daysAgo: number;
  content: string;
}

export const samplePosts: SamplePost[] = [
  {
    title: "Why Small Businesses Deserve Enterprise-Grade Websites",
    slug: "why-small-businesses-deserve-enterprise-grade-websites",
    excerpt:
      "A fast, accessible website is no longer a luxury. Here is how we bring the practices of large teams to a local business budget.",
    category: "Web Design",
    readTime: "5 min read",
    daysAgo: 3,
    content: `Most visitors meet a small business on a phone, from a search result or a shared link. In the first three seconds they decide whether to stay.

## What "enterprise-grade" really means

- **Speed**: pages that render on the server and arrive ready to read.
- **Accessibility**: every control reachable by keyboard and screen reader.
- **Care for content**: a blog that the owner can update without calling a developer.

None of this needs a large budget. It needs a process: a review of what you have, a redesign from your existing assets, and a round of revisions with you.

> Good design is as little design as possible. — Dieter Rams

If your site feels slow or dated, [get in touch](/#hero) and we will review it with you.`,
  },
  {
    title: "Tenant Onboarding in Under 30 Minutes with Cloud Governance",
    slug: "tenant-onboarding-in-under-30-minutes",
    excerpt:
      "How our cloud governance platform takes a new Azure tenant from first sign-in to policy-compliant in less than half an hour.",
    category: "Cloud",
    readTime: "6 min read",
    daysAgo: 10,
    content: `Managing Azure for several clients means repeating the same setup again and again: policies, budgets, role assignments, alerts.

## The checklist we automated

1. Connect the tenant with least-privilege consent.
2. Apply a baseline of policies and tags.
3. Set budgets and cost alerts per subscription.
4. Schedule a weekly governance report.

| Step | Manual | With the platform |
|---|---|---|
| Policies | 2 hours | 5 minutes |
| Budgets and alerts | 1 hour | 3 minutes |
| Reporting | ongoing | automatic |

The result: a tenant onboarded in under 30 minutes, and a repeatable baseline that auditors can read.`,
  },
  {
    title: "Building an IoT Garden Monitor in Ojai",
    slug: "building-an-iot-garden-monitor-in-ojai",
    excerpt:
      "Soil moisture, sunlight and temperature from a backyard garden, streamed to a dashboard: notes from one of our research projects.",
    category: "Research",
    readTime: "4 min read",
    daysAgo: 24,
    content: `Ojai summers are hot and dry, and a garden needs water at the right moment, not on a timer.

## The hardware

- A low-power microcontroller with Wi-Fi
- Capacitive soil moisture sensors (they do not corrode like resistive ones)
- A light sensor and a temperature probe

## What we learned

Readings every fifteen minutes are plenty, and batteries last months when the radio sleeps between them. The next step is to connect the monitor to the valves, so the garden waters itself when the soil asks for it.

~~Watering on a schedule~~ Watering on demand.`,
  },
];
