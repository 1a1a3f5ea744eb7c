import { z } from "zod";
import { preferredContactOptions, serviceOptions } from "~/content/contact";

import {
  CONTACT_INVALID_EMAIL_MESSAGE,
  CONTACT_LIMITS,
  CONTACT_REQUIRED_MESSAGE,
  MIN_FILL_TIME_MS,
  type ContactInput,
} from "~/lib/contact-rules";
import { isValidEmail } from "~/lib/email";

const optionalText = z
  .string()
  .nullish()
  .transform((v) => (v ?? "").trim());

const bodySchema = z.object({
  name: optionalText,
  email: optionalText,
  phone: optionalText,
  message: optionalText,
  preferredContact: z.string().nullish(),
  service: z.string().nullish(),
  /** Honeypot: hidden from people, filled in by bots. */
  website: z.unknown().optional(),
  /** Milliseconds between opening the form and sending it, when a browser sends it. */
  elapsedMs: z.number().nullish(),
});

type ContactParse =
  { ok: true; value: ContactInput; honeypot: boolean; tooFast: boolean } | { ok: false; message: string };

export function parseContactInput(body: unknown): ContactParse {
  const parsed = bodySchema.safeParse(body);
  if (!parsed.success)
    return { ok: false, message: "Send a JSON object with name, email, phone, preferredContact, service and message" };
  const b = parsed.data;
  if (!b.name || !b.email || !b.message) return { ok: false, message: CONTACT_REQUIRED_MESSAGE };
  if (!isValidEmail(b.email) || b.email.length > CONTACT_LIMITS.email)
    return { ok: false, message: CONTACT_INVALID_EMAIL_MESSAGE };
  if (b.name.length > CONTACT_LIMITS.name)
    return { ok: false, message: `Error: Name is too long (${CONTACT_LIMITS.name} characters at most).` };
  if (b.phone.length > CONTACT_LIMITS.phone)
    return { ok: false, message: `Error: Phone is too long (${CONTACT_LIMITS.phone} characters at most).` };
  if (b.message.length > CONTACT_LIMITS.message) {
    return { ok: false, message: `Error: Message is too long (${CONTACT_LIMITS.message} characters at most).` };
  }
  const preferred = preferredContactOptions.find((o) => o.value === (b.preferredContact ?? "phone"));
  if (!preferred) return { ok: false, message: "Error: preferredContact must be one of email, phone, text." };
  const service = serviceOptions.find((o) => o.value === (b.service ?? "media"));
  if (!service) return { ok: false, message: "Error: service must be one of media, systems, research." };
  const honeypot = typeof b.website === "string" ? b.website.trim() !== "" : b.website != null && b.website !== false;
  const tooFast = typeof b.elapsedMs === "number" && b.elapsedMs < MIN_FILL_TIME_MS;
  return {
    ok: true,
    honeypot,
    tooFast,
    value: {
      name: b.name,
      email: b.email,
      phone: b.phone || null,
      preferredContact: preferred.value,
      service: service.value,
      message: b.message,
    },
  };
}

/** Characters of a message looked at for links: the whole of any message the form takes. */
const LINK_SCAN_LIMIT = 5_000;
/** Letters, besides its links, that a message needs not to be links-only. */
const MIN_LETTERS_BESIDE_LINKS = 12;

/**
 * Whether a message is links and little else (ADR 070): it holds a link
 * (a word starting http://, https:// or www.) and, without its links, fewer
 * than MIN_LETTERS_BESIDE_LINKS letters. Words are split on white space;
 * no pattern runs over the whole text.
 */
export function isLinksOnly(message: string): boolean {
  let links = 0;
  let letters = 0;
  for (const word of message.slice(0, LINK_SCAN_LIMIT).split(/\s+/)) {
    const lower = word.toLowerCase();
    if (lower.startsWith("http://") || lower.startsWith("https://") || lower.startsWith("www.")) {
      links++;
      continue;
    }
    for (const char of word) if (char.toLowerCase() !== char.toUpperCase()) letters++;
  }
  return links > 0 && letters < MIN_LETTERS_BESIDE_LINKS;
}
