/**
 * The original copy of the editable pages (ADR 053): what a new database
 * shows until the owner publishes a change, and what "Reset this section to
 * the original copy" puts back. Built from the copy modules beside it, so
 * the public pages with the default content are exactly what they were; the
 * privacy page, which had no copy before, is written here.
 */
import type {
  AboutContent,
  ContactContent,
  ContentDocuments,
  ContentName,
  LandingContent,
  PrivacyContent,
} from "~/lib/site-content";
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

/**
 * The privacy page's original copy: the notice is docs/security.md's table
 * "What the site keeps about a visitor" in plain words, each item what is
 * kept and for how long, every sentence true of the code (and of deploy/'s
 * nginx for the logs). A change to that table is reflected here.
 */
function defaultPrivacy(): PrivacyContent {
  return {
    heading: "Privacy",
    intro:
      "What this website keeps about you and for how long. It sets no cookie for visitors and runs no other company's tracking or advertising.",
    keeps: {
      heading: "What we keep about you",
      items: [
        {
          name: "Messages",
          body: "When you write to us with the contact form, we keep what you fill in (your name, e-mail address, phone number if you give one, how you prefer to be reached, the service you ask about and your message), the page you sent it from and how you found the site that day (the website or campaign link you came from). We keep it, with our replies, until we delete it. Messages the site takes for spam are kept apart, only the newest 500.",
        },
        {
          name: "Booked calls",
          body: "When you book a call, we keep your name and e-mail address, your phone number and note if you give them, the time of the call and your time zone. The booking is deleted 30 days after the call, or 30 days after it is cancelled. It also reaches us as a message, which keeps your name, contact details, note and the call's time until we delete it.",
        },
        {
          name: "Newsletter subscribers",
          body: "When you sign up for the newsletter, we keep your e-mail address and when you signed up, confirmed or left. It stays until you unsubscribe, with the link in every newsletter e-mail. A sign-up not confirmed within 7 days of its confirmation e-mail is deleted; an address that unsubscribed is forgotten 30 days later. Newsletter e-mails carry no tracking pixel and no rewritten links, so we cannot tell who opened one or followed a link.",
        },
        {
          name: "Visit counts, without cookies",
          body: "We count visits ourselves, with no cookie and no other company, and keep daily totals only: views of each page, the websites and campaign links visitors came from, and whether they used a computer, phone or tablet. To count each visitor once a day, your network address (with and without your browser's name) is mixed with a random value made fresh each day and only the results are kept; the value and the results are deleted at the end of the day. The totals are kept for about two years.",
        },
        {
          name: "Logs",
          body: "The site's database does not keep your network (IP) address, except in one case: when someone tries to sign in to the site's admin, a shortened form of it (its network, not your device) and the browser's name are kept for a year as a security record. The web server in front of the site logs each request: your network address, the time, the page asked for, your browser's name and the website you came from (its address, not the page). These logs are kept about two weeks, to keep the site running and safe.",
        },
      ],
    },
    sections: [
      {
        heading: "Who we are",
        paragraphs: [
          "This website belongs to the company named at the bottom of every page, which decides what is kept and why. To ask us anything about your details, send us a message with the contact form: Contact, at the bottom of every page.",
        ],
      },
      {
        heading: "Seeing, correcting or deleting your details",
        paragraphs: [
          "You can ask us what we hold about you, and ask us to correct or delete it: send us a message with the contact form, giving the e-mail address your details are under. We then delete your messages, bookings and newsletter address. A backup we made before then still holds them.",
          "You can leave the newsletter at any time with the link in each newsletter e-mail, and cancel a booked call with the link in its e-mail.",
        ],
      },
      {
        heading: "Who else sees your details",
        paragraphs: [
          "Only the people who run this site. The e-mails the site sends (our replies, booking invitations, the newsletter) go through our e-mail provider. If we connect the site to another of our tools, such as a customer list, it is told of new messages, bookings and confirmed newsletter sign-ups.",
        ],
      },
      {
        heading: "Cookies",
        paragraphs: [
          "This site sets no cookie for visitors, so there is nothing to accept or refuse. Only the people who run the site get one, when they sign in to manage it.",
          "When you move between blog articles, your browser keeps a short note for that tab of where the keyboard focus goes on the next page; it holds nothing about you, and the next page removes it.",
        ],
      },
    ],
  };
}

/** A fresh copy of a page's original document (callers may change it). */
export function defaultContent<N extends ContentName>(name: N): ContentDocuments[N] {
  const build = { landing: defaultLanding, about: defaultAbout, contact: defaultContact, privacy: defaultPrivacy }[
    name
  ];
  return build() as ContentDocuments[N];
}
