import type { Migration } from "kysely";
import * as m001Initial from "./migrations/001_initial.server";
import * as m002Images from "./migrations/002_images.server";
import * as m003ContactMessages from "./migrations/003_contact_messages.server";
import * as m005ContentVersion from "./migrations/005_content_version.server";
import * as m006SessionLastSeen from "./migrations/006_session_last_seen.server";
import * as m007AdminListIndexes from "./migrations/007_admin_list_indexes.server";
import * as m008PostsOrderIndex from "./migrations/008_posts_order_index.server";
import * as m009TitleSearch from "./migrations/009_title_search.server";
import * as m010SiteSettings from "./migrations/010_site_settings.server";
import * as m011Inbox from "./migrations/011_inbox.server";
import * as m012ImageReferences from "./migrations/012_image_references.server";
import * as m013TwoFactor from "./migrations/013_two_factor.server";
import * as m014AdminsAndAudit from "./migrations/014_admins_and_audit.server";
import * as m015PostSeo from "./migrations/015_post_seo.server";
import * as m016PostCategorySlug from "./migrations/016_post_category_slug.server";
import * as m017PostSearch from "./migrations/017_post_search.server";
import * as m018PostRevisions from "./migrations/018_post_revisions.server";
import * as m019PreviewLinks from "./migrations/019_preview_links.server";
import * as m020SiteContent from "./migrations/020_site_content.server";
import * as m021Redirects from "./migrations/021_redirects.server";
import * as m022PageImageReferences from "./migrations/022_page_image_references.server";
import * as m023Analytics from "./migrations/023_analytics.server";
import * as m024ThrottleKeys from "./migrations/024_throttle_keys.server";
import * as m025ClientNetworks from "./migrations/025_client_networks.server";
import * as m026AnalyticsGuards from "./migrations/026_analytics_guards.server";
import * as m027Versioning from "./migrations/027_versioning.server";
import * as m028Jobs from "./migrations/028_jobs.server";
import * as m029Webhooks from "./migrations/029_webhooks.server";
import * as m030Leads from "./migrations/030_leads.server";
import * as m031Booking from "./migrations/031_booking.server";
import * as m032Newsletter from "./migrations/032_newsletter.server";
import * as m033ShareCards from "./migrations/033_share_cards.server";
import * as m034Imports from "./migrations/034_imports.server";
import * as m035ContentVersionNotify from "./migrations/035_content_version_notify.server";
import * as m036BackupStatus from "./migrations/036_backup_status.server";

/**
 * Every migration, by the name Kysely records for it in the kysely_migration
 * table once it has run. Each is a file of its own in migrations/, named
 * after it, and frozen once shipped: it takes Kysely<any> and imports only
 * Kysely and the dialect check, and a data fix in it is written against the
 * tables as they were then, never by calling today's code (ADR 050). A new
 * migration takes the next number and is added at the end; a name once
 * shipped never changes (a database that ran it would find it pending again).
 * There is no 004: a branch's 004 was left out when it merged, so never shipped.
 */
export const migrations: Record<string, Migration> = {
  "001_initial": m001Initial,
  "002_images": m002Images,
  "003_contact_messages": m003ContactMessages,
  "005_content_version": m005ContentVersion,
  "006_session_last_seen": m006SessionLastSeen,
  "007_admin_list_indexes": m007AdminListIndexes,
  "008_posts_order_index": m008PostsOrderIndex,
  "009_title_search": m009TitleSearch,
  "010_site_settings": m010SiteSettings,
  "011_inbox": m011Inbox,
  "012_image_references": m012ImageReferences,
  "013_two_factor": m013TwoFactor,
  "014_admins_and_audit": m014AdminsAndAudit,
  "015_post_seo": m015PostSeo,
  "016_post_category_slug": m016PostCategorySlug,
  "017_post_search": m017PostSearch,
  "018_post_revisions": m018PostRevisions,
  "019_preview_links": m019PreviewLinks,
  "020_site_content": m020SiteContent,
  "021_redirects": m021Redirects,
  "022_page_image_references": m022PageImageReferences,
  "023_analytics": m023Analytics,
  "024_throttle_keys": m024ThrottleKeys,
  "025_client_networks": m025ClientNetworks,
  "026_analytics_guards": m026AnalyticsGuards,
  "027_versioning": m027Versioning,
  "028_jobs": m028Jobs,
  "029_webhooks": m029Webhooks,
  "030_leads": m030Leads,
  "031_booking": m031Booking,
  "032_newsletter": m032Newsletter,
  "033_share_cards": m033ShareCards,
  "034_imports": m034Imports,
  "035_content_version_notify": m035ContentVersionNotify,
  "036_backup_status": m036BackupStatus,
};
