import type { Selectable, Transaction } from "kysely";
import type { SiteSettings } from "~/lib/site-settings";
import { getConfig, type Config } from "../platform/config.server";
import type { Db } from "../db/db.server";
import { getDb } from "../db/index.server";
import type { Database, SiteSettingsTable } from "../db/schema.server";
import { getLogger } from "../platform/logger.server";
import { changingContent } from "../db/content-version.server";

/**
 * The owner's site settings (ADR 034): one row of site_settings, written at
 * first start from the environment and afterwards only through Settings.
 * Every render reads them (one primary-key read), and a save bumps the
 * content version in the same transaction, so every process's cached pages
 * show the new values on their next request.
 */

/** The About page's location (docs/product/interface.md#about-page). */
const DEFAULT_LOCATION = "Ojai, California";
const DEFAULT_META_DESCRIPTION =
  "Web design for media, cloud and business platforms for systems, and research projects from Ojai, California.";

/** What the first start writes: the environment's values (docs/configuration.md), or the About page's location and nothing. */
function defaultSiteSettings(config: Config = getConfig()): SiteSettings {
  return {
    companyName: config.company.name,
    contactEmail: config.company.email ?? null,
    contactPhone: config.company.phone ?? null,
    location: DEFAULT_LOCATION,
    socialUrls: { facebook: null, instagram: null, linkedin: null },
    metaDescription: DEFAULT_META_DESCRIPTION,
    notifyEmail: config.company.notifyTo ?? null,
  };
}

/** The columns Settings owns: the acknowledgement's (migration 030) belong to the inbox (ADR 070). */
type Row = Omit<Selectable<SiteSettingsTable>, "acknowledge_messages" | "acknowledgement_text">;

function fromRow(row: Row): SiteSettings {
  return {
    companyName: row.company_name,
    contactEmail: row.contact_email,
    contactPhone: row.contact_phone,
    location: row.location,
    socialUrls: { facebook: row.facebook_url, instagram: row.instagram_url, linkedin: row.linkedin_url },
    metaDescription: row.meta_description,
    notifyEmail: row.notify_email,
  };
}

function toRow(settings: SiteSettings, updatedAt: string): Row {
  return {
    id: 1,
    company_name: settings.companyName,
    contact_email: settings.contactEmail,
    contact_phone: settings.contactPhone,
    location: settings.location,
    facebook_url: settings.socialUrls.facebook,
    instagram_url: settings.socialUrls.instagram,
    linkedin_url: settings.socialUrls.linkedin,
    meta_description: settings.metaDescription,
    notify_email: settings.notifyEmail,
    updated_at: updatedAt,
  };
}

/** The saved settings; the first-start defaults while none are saved (a database the site never started on). */
export async function readSiteSettings(db: Db | Transaction<Database>): Promise<SiteSettings> {
  const row = await db.selectFrom("site_settings").selectAll().where("id", "=", 1).executeTakeFirst();
  return row ? fromRow(row) : defaultSiteSettings();
}

const perRequest = new WeakMap<Request, Promise<SiteSettings>>();

/**
 * The settings a request's page is rendered with: read once per request,
 * however many of its loaders ask (the root's and the page's).
 */
export function siteSettingsFor(request: Request): Promise<SiteSettings> {
  let settings = perRequest.get(request);
  if (!settings) {
    settings = readSiteSettings(getDb());
    perRequest.set(request, settings);
  }
  return settings;
}

/** Saves the settings and bumps the content version with them: every process's cached pages are stale at once. */
export async function saveSiteSettings(db: Db, settings: SiteSettings): Promise<SiteSettings> {
  const row = toRow(settings, new Date().toISOString());
  const { id: _id, ...columns } = row;
  await changingContent(db, (trx) =>
    trx
      .insertInto("site_settings")
      .values(row)
      .onConflict((conflict) => conflict.column("id").doUpdateSet(columns))
      .execute(),
  );
  return fromRow(row);
}

const ENVIRONMENT_DEFAULTS: Array<[string, (s: SiteSettings) => string | null, (c: Config) => string | undefined]> = [
  ["COMPANY_NAME", (s) => s.companyName, (c) => (c.company.nameFromEnvironment ? c.company.name : undefined)],
  ["CONTACT_EMAIL", (s) => s.contactEmail, (c) => c.company.email],
  ["CONTACT_PHONE", (s) => s.contactPhone, (c) => c.company.phone],
  ["CONTACT_NOTIFY_TO", (s) => s.notifyEmail, (c) => c.company.notifyTo],
];

/**
 * At start: the first start writes the environment's values as the saved
 * settings (several processes starting together write them once). Later
 * starts keep what is saved, and say so when the environment differs.
 */
export async function ensureSiteSettings(db: Db, config: Config = getConfig()): Promise<void> {
  const inserted = await db
    .insertInto("site_settings")
    .values(toRow(defaultSiteSettings(config), new Date().toISOString()))
    .onConflict((conflict) => conflict.column("id").doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return;
  const saved = await readSiteSettings(db);
  const ignored = ENVIRONMENT_DEFAULTS.filter(([, fromSettings, fromConfig]) => {
    const environment = fromConfig(config);
    return environment !== undefined && environment !== fromSettings(saved);
  }).map(([variable]) => variable);
  if (ignored.length > 0) {
    getLogger().info(
      { variables: ignored },
      `${ignored.join(", ")} differ from the saved site settings; the saved settings apply (change them in Admin > Settings)`,
    );
  }
}
