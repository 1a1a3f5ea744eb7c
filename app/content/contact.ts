/** Contact modal copy and options (docs/product/interface.md#contact-modal). */

export const preferredContactOptions = [
  { value: "email", label: "Email" },
  { value: "phone", label: "Phone" },
  { value: "text", label: "Text" },
] as const;

export const serviceOptions = [
  { value: "media", label: "For Media" },
  { value: "systems", label: "For Systems" },
  { value: "research", label: "For Research" },
] as const;

export type PreferredContact = (typeof preferredContactOptions)[number]["value"];
export type ServiceInterest = (typeof serviceOptions)[number]["value"];

export const contactDefaults = {
  preferredContact: "phone" as PreferredContact,
  service: "media" as ServiceInterest,
};

/** The message field starts with one of these, picked at random (10 sentences, docs/product/interface.md#contact-modal). */
export const humorousMessages = [
  "Hi! My website was last updated when dial-up was cool. Can you help?",
  "My cloud bill is bigger than my coffee budget, and that is saying something.",
  "I'd like a website so good my competitors start asking me for advice.",
  "Our IT department is one laptop and a prayer. Let's talk.",
  "I need a logo that says 'professional' but whispers 'fun at parties'.",
  "My spreadsheet has spreadsheets. I think I need a dashboard.",
  "I tried turning it off and on again. Now I'd like to talk to a human.",
  "Our social media posts are as rare as rain in Ojai in August. Help!",
  "I have an idea for a gadget that waters my tomatoes. Interested?",
  "Please make my website load faster than I can say 'Topatopa Mountains'.",
] as const;

export const contactText = {
  title: "Get Started",
  description:
    "Tell us about your project and how you'd like us to reach you. We usually answer within one business day.",
  name: "Name",
  email: "Email",
  phone: "Phone",
  optional: "(optional)",
  required: "(required)",
  preferredContact: "Preferred Contact Method",
  service: "Service Interest",
  message: "Message",
  submit: "Send Message",
  submitting: "Sending...",
  close: "Close",
  requiredError: "Error: Please fill in all required fields.",
  invalidEmail: "Error: Please enter a valid email address.",
  networkError:
    "Error: Your message could not be sent. Please check your connection and try again; your text is still here.",
  serverError:
    "Error: Your message could not be sent right now. Please try again in a moment; your text is still here.",
  successTitle: "Message Sent",
  successBody: "Thank you for your message! We will get back to you soon.",
  /** Hidden from people; bots fill it in (the honeypot of docs/product/contract.md#contact-messages). */
  honeypotLabel: "Leave this field empty",
};

/**
 * Where a page carries the owner's sentences when they are not these
 * (Admin > Pages, ADR 053): a JSON array in a script element of this id.
 */
export const CONTACT_MESSAGES_ELEMENT_ID = "contact-messages";

/** The sentences the page carries, or these; anything malformed counts as none. */
export function pageHumorousMessages(): readonly string[] {
  const element = typeof document === "undefined" ? null : document.getElementById(CONTACT_MESSAGES_ELEMENT_ID);
  if (!element?.textContent) return humorousMessages;
  try {
    const messages = JSON.parse(element.textContent) as unknown;
    if (Array.isArray(messages) && messages.length > 0 && messages.every((m) => typeof m === "string")) return messages;
  } catch {
    // fall back to the original sentences
  }
  return humorousMessages;
}

export function randomHumorousMessage(
  random: () => number = Math.random,
  messages: readonly string[] = humorousMessages,
): string {
  return messages[Math.floor(random() * messages.length)]!;
}
