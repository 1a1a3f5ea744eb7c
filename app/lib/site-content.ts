import { z } from "zod";

/**
 * Site content (ADR 053, docs/api.md#site-content-admin): the marketing copy
 * of the landing page, the About page, the contact modal's sentences and the
 * privacy page, one validated document per page. This one zod schema is used by the API, the
 * Pages editor (its fields, limits and messages) and the pages' types. The
 * interface texts (menu, hero, section titles, buttons of the interface,
 * notices, form labels) stay in app/content and are not part of it.
 */

export const CONTENT_NAMES = ["landing", "about", "contact", "privacy"] as const;
export type ContentName = (typeof CONTENT_NAMES)[number];
export const isContentName = (name: string): name is ContentName => (CONTENT_NAMES as readonly string[]).includes(name);

/** Longest text of each kind, in characters. */
export const CONTENT_LIMITS = {
  heading: 120,
  name: 80,
  price: 40,
  item: 160,
  summary: 600,
  paragraph: 1200,
  imageUrl: 300,
  alt: 200,
} as const;

/** A document's JSON is at most this many bytes (every list full, every text at its limit fits). */
export const CONTENT_BODY_LIMIT = 256 * 1024;

// eslint-disable-next-line no-control-regex -- the characters one line of copy may not hold (newlines included)
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** One line of copy: not empty, at most `max` characters, no control characters. */
const line = (max: number) =>
  z
    .string({ error: "must be text" })
    .max(max, { error: `is too long (${max} characters at most)` })
    .refine((value) => value.trim() !== "", { error: "must not be empty" })
    .refine((value) => !CONTROL.test(value), { error: "must be one line without control characters" });

/** Like `line`, but may be empty (an optional note, a name not given). */
const optionalLine = (max: number) =>
  z
    .string({ error: "must be text" })
    .max(max, { error: `is too long (${max} characters at most)` })
    .refine((value) => !CONTROL.test(value), { error: "must be one line without control characters" });

const list = <T extends z.ZodType>(item: T, min: number, max: number) =>
  z
    .array(item, { error: "must be a list" })
    .min(min, { error: min === 1 ? "needs at least one item" : `needs at least ${min} items` })
    .max(max, { error: `has too many items (${max} at most)` });

/** A client's unknown key, shortened to fit a message. */
const shown = (key: string) => (key.length > 40 ? `${key.slice(0, 40)}...` : key);

const object = <T extends z.ZodRawShape>(shape: T) =>
  z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `has a field it does not know: ${issue.keys.slice(0, 3).map(shown).join(", ")}`
        : "must be an object",
  });

/** An uploaded image of this site (/images/...), as the upload answers its URL. */
const IMAGE_URL = /^\/images\/[\w.-]+$/;
const imageUrl = z
  .string({ error: "must be text" })
  .max(CONTENT_LIMITS.imageUrl, { error: `is too long (${CONTENT_LIMITS.imageUrl} characters at most)` })
  .refine((value) => IMAGE_URL.test(value), { error: "must be an image uploaded to this site (/images/...)" });

const pricedItem = object({
  name: line(CONTENT_LIMITS.name),
  price: line(CONTENT_LIMITS.price),
  note: optionalLine(CONTENT_LIMITS.name),
});

const landingSchema = object({
  media: object({
    intro: line(CONTENT_LIMITS.summary),
    packagesHeading: line(CONTENT_LIMITS.heading),
    packages: list(
      object({
        name: line(CONTENT_LIMITS.name),
        price: line(CONTENT_LIMITS.price),
        featured: z.boolean({ error: "must be true or false" }),
        features: list(line(CONTENT_LIMITS.item), 1, 12),
      }),
      1,
      8,
    ),
    addOnsHeading: line(CONTENT_LIMITS.heading),
    addOns: list(pricedItem, 0, 20),
    aLaCarteHeading: line(CONTENT_LIMITS.heading),
    aLaCarte: list(pricedItem, 0, 20),
    cta: line(CONTENT_LIMITS.name),
  }),
  systems: object({
    intro: line(CONTENT_LIMITS.summary),
    claim: line(CONTENT_LIMITS.item),
    platforms: list(
      object({
        name: line(CONTENT_LIMITS.name),
        summary: line(CONTENT_LIMITS.summary),
        features: list(line(CONTENT_LIMITS.item), 1, 12),
      }),
      1,
      6,
    ),
    cta: line(CONTENT_LIMITS.name),
  }),
  research: object({
    intro: line(CONTENT_LIMITS.summary),
    projects: list(object({ name: line(CONTENT_LIMITS.name), summary: line(CONTENT_LIMITS.summary) }), 1, 8),
    cta: line(CONTENT_LIMITS.name),
  }),
});

const photo = object({ url: imageUrl, alt: line(CONTENT_LIMITS.alt) }).nullable();

const aboutSchema = object({
  tagline: line(CONTENT_LIMITS.heading),
  mission: object({
    heading: line(CONTENT_LIMITS.heading),
    paragraphs: list(line(CONTENT_LIMITS.paragraph), 1, 10),
  }),
  solutions: object({
    heading: line(CONTENT_LIMITS.heading),
    items: list(
      object({
        name: line(CONTENT_LIMITS.name),
        summary: line(CONTENT_LIMITS.summary),
        features: list(line(CONTENT_LIMITS.item), 1, 12),
      }),
      1,
      6,
    ),
  }),
  values: object({
    heading: line(CONTENT_LIMITS.heading),
    intro: line(CONTENT_LIMITS.summary),
    items: list(object({ name: line(CONTENT_LIMITS.name), body: line(CONTENT_LIMITS.summary) }), 1, 8),
  }),
  team: object({
    heading: line(CONTENT_LIMITS.heading),
    members: list(
      object({
        name: optionalLine(CONTENT_LIMITS.name),
        role: line(CONTENT_LIMITS.name),
        bio: line(CONTENT_LIMITS.summary),
        photo,
      }),
      0,
      24,
    ),
  }),
  story: object({
    heading: line(CONTENT_LIMITS.heading),
    paragraphs: list(line(CONTENT_LIMITS.paragraph), 1, 10),
  }),
  cta: object({
    heading: line(CONTENT_LIMITS.heading),
    body: line(CONTENT_LIMITS.summary),
    button: line(CONTENT_LIMITS.name),
  }),
});

const contactSchema = object({
  messages: list(line(CONTENT_LIMITS.item), 1, 20),
});

/**
 * The privacy page: what the site keeps about a visitor and for how long (the
 * notice, shown first), then the owner's sections (who we are, your rights,
 * cookies). Its original copy follows docs/security.md's table of visitor data.
 */
const privacySchema = object({
  heading: line(CONTENT_LIMITS.heading),
  intro: line(CONTENT_LIMITS.summary),
  keeps: object({
    heading: line(CONTENT_LIMITS.heading),
    items: list(object({ name: line(CONTENT_LIMITS.name), body: line(CONTENT_LIMITS.summary) }), 1, 12),
  }),
  sections: list(
    object({
      heading: line(CONTENT_LIMITS.heading),
      paragraphs: list(line(CONTENT_LIMITS.paragraph), 1, 10),
    }),
    0,
    12,
  ),
});

export type LandingContent = z.infer<typeof landingSchema>;
export type AboutContent = z.infer<typeof aboutSchema>;
export type ContactContent = z.infer<typeof contactSchema>;
export type PrivacyContent = z.infer<typeof privacySchema>;
export interface ContentDocuments {
  landing: LandingContent;
  about: AboutContent;
  contact: ContactContent;
  privacy: PrivacyContent;
}
export type ContentDocument = ContentDocuments[ContentName];

export const contentSchemas: { [N in ContentName]: z.ZodType<ContentDocuments[N]> } = {
  landing: landingSchema,
  about: aboutSchema,
  contact: contactSchema,
  privacy: privacySchema,
};

/** A field's path as the API and the editor name it: `media.packages[2].price`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || "document";
}

interface ContentIssue {
  field: string;
  message: string;
}

export type ContentParse<N extends ContentName> =
  { ok: true; value: ContentDocuments[N] } | { ok: false; issues: ContentIssue[] };

/** Checks a whole document; every problem names its field (the first is the API's `error`). */
export function parseContent<N extends ContentName>(name: N, value: unknown): ContentParse<N> {
  const result = contentSchemas[name].safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues.map((issue) => {
    const field = fieldPath(issue.path);
    return { field, message: `${field} ${issue.message}` };
  });
  return { ok: false, issues };
}
