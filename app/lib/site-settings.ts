import { EMAIL_MAX_LENGTH, isValidEmail } from "./email";

/**
 * The owner's site settings (docs/product/contract.md#settings, ADR 034): what the About page,
 * the footer, the feeds, the structured data and the contact notices show.
 * `null` means "not set": a public page then leaves the value out, never
 * shows a placeholder. Plain TypeScript (no zod) so the admin screen can use
 * the same rules as the API.
 */
export const SOCIAL_NETWORKS = ["facebook", "instagram", "linkedin"] as const;
type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];
export type SocialUrls = Record<SocialNetwork, string | null>;

export interface SiteSettings {
  companyName: string;
  contactEmail: string | null;
  contactPhone: string | null;
  location: string | null;
  socialUrls: SocialUrls;
  metaDescription: string | null;
  notifyEmail: string | null;
}

/** Longest value of each field, in characters; checked before any pattern runs. */
export const SETTINGS_LIMITS = {
  companyName: 100,
  email: EMAIL_MAX_LENGTH,
  contactPhone: 40,
  location: 100,
  socialUrl: 500,
  metaDescription: 300,
} as const;

/** A phone number as people write it: an optional +, then digits, spaces, ( ) - and dots. */
const PHONE = /^\+?[\d ().-]+$/;
const PHONE_DIGITS = { min: 5, max: 20 };
// eslint-disable-next-line no-control-regex -- these are the characters a one-line value may not hold
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export interface SettingsIssue {
  /** The field's name as the API spells it: "contactEmail", "socialUrls.linkedin". */
  field: string;
  message: string;
}

export type SettingsParse = { ok: true; value: SiteSettings } | { ok: false; issues: SettingsIssue[] };

const FIELDS = [
  "companyName",
  "contactEmail",
  "contactPhone",
  "location",
  "socialUrls",
  "metaDescription",
  "notifyEmail",
] as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A field name fit to repeat in a message (a client's unknown key may be anything). */
const shown = (name: string) => (name.length > 40 ? `${name.slice(0, 40)}...` : name);

/**
 * Reads a settings change (PUT /api/admin/settings, the Settings form) over
 * the current settings: a field left out keeps its value, `null` or an empty
 * string clears it. Every problem is reported, each naming its field.
 */
export function parseSettingsInput(body: unknown, current: SiteSettings): SettingsParse {
  if (!isObject(body)) return { ok: false, issues: [{ field: "body", message: "Send a JSON object of settings" }] };
  const issues: SettingsIssue[] = [];
  for (const key of Object.keys(body)) {
    if (!(FIELDS as readonly string[]).includes(key))
      issues.push({ field: shown(key), message: `${shown(key)} is not a setting` });
  }
  const value: SiteSettings = { ...current, socialUrls: { ...current.socialUrls } };

  const text = (field: string, raw: unknown, max: number, multiline = false): string | null | undefined => {
    if (raw === undefined) return undefined;
    if (raw === null) return null;
    if (typeof raw !== "string") {
      issues.push({ field, message: `${field} must be text or null` });
      return undefined;
    }
    if (raw.length > max * 4) {
      issues.push({ field, message: `${field} is too long (${max} characters at most)` });
      return undefined;
    }
    const trimmed = multiline ? raw.replace(/\s+/g, " ").trim() : raw.trim();
    if (trimmed.length > max) {
      issues.push({ field, message: `${field} is too long (${max} characters at most)` });
      return undefined;
    }
    if (CONTROL.test(trimmed)) {
      issues.push({ field, message: `${field} must be one line of text` });
      return undefined;
    }
    return trimmed === "" ? null : trimmed;
  };

  const companyName = text("companyName", body.companyName, SETTINGS_LIMITS.companyName);
  if (companyName === null) issues.push({ field: "companyName", message: "companyName must not be empty" });
  else if (companyName !== undefined) value.companyName = companyName;

  for (const field of ["contactEmail", "notifyEmail"] as const) {
    const email = text(field, body[field], SETTINGS_LIMITS.email);
    if (email && !isValidEmail(email)) issues.push({ field, message: `${field} must be an e-mail address` });
    else if (email !== undefined) value[field] = email;
  }

  const phone = text("contactPhone", body.contactPhone, SETTINGS_LIMITS.contactPhone);
  if (phone && !isValidPhone(phone)) {
    issues.push({
      field: "contactPhone",
      message: `contactPhone must be a phone number: ${PHONE_DIGITS.min} to ${PHONE_DIGITS.max} digits, with spaces, + ( ) - or dots`,
    });
  } else if (phone !== undefined) value.contactPhone = phone;

  const location = text("location", body.location, SETTINGS_LIMITS.location);
  if (location !== undefined) value.location = location;

  const description = text("metaDescription", body.metaDescription, SETTINGS_LIMITS.metaDescription, true);
  if (description !== undefined) value.metaDescription = description;

  const social = body.socialUrls;
  if (social === null) {
    for (const network of SOCIAL_NETWORKS) value.socialUrls[network] = null;
  } else if (social !== undefined && !isObject(social)) {
    issues.push({ field: "socialUrls", message: "socialUrls must be an object with facebook, instagram and linkedin" });
  } else if (social !== undefined) {
    for (const key of Object.keys(social)) {
      if (!(SOCIAL_NETWORKS as readonly string[]).includes(key))
        issues.push({ field: `socialUrls.${shown(key)}`, message: `socialUrls.${shown(key)} is not a setting` });
    }
    for (const network of SOCIAL_NETWORKS) {
      const field = `socialUrls.${network}`;
      const url = text(field, social[network], SETTINGS_LIMITS.socialUrl);
      if (url === undefined) continue;
      if (url === null) value.socialUrls[network] = null;
      else {
        const https = httpsUrl(url);
        if (https) value.socialUrls[network] = https;
        else issues.push({ field, message: `${field} must be an https:// address` });
      }
    }
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value };
}

export function isValidPhone(phone: string): boolean {
  if (phone.length > SETTINGS_LIMITS.contactPhone || !PHONE.test(phone)) return false;
  const digits = phone.replace(/\D/g, "").length;
  return digits >= PHONE_DIGITS.min && digits <= PHONE_DIGITS.max;
}

/** The address of an https URL with a host name and no user name or password, normalised; undefined otherwise. */
export function httpsUrl(value: string): string | undefined {
  if (value.length > SETTINGS_LIMITS.socialUrl || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  if (url.protocol !== "https:" || !url.hostname.includes(".") || url.username || url.password) return undefined;
  return url.href;
}

/** The number a tel: link dials: the digits, and a leading +. */
export function telHref(phone: string): string {
  return `tel:${phone.startsWith("+") ? "+" : ""}${phone.replace(/\D/g, "")}`;
}
