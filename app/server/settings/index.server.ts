/** The settings domain's interface: what routes, server/ and other domains may use (README.md here). */
export { ensureSiteSettings, readSiteSettings, saveSiteSettings, siteSettingsFor } from "./settings.server";
