import type { Generated } from "kysely";

/**
 * Database row types. Dates are ISO 8601 UTC strings (see ADR 003) and
 * booleans are 0/1 integers, so one set of queries serves SQLite and PostgreSQL.
 */
export interface PostsTable {
  id: string;
  title: string;
  slug: string;
  excerpt: string;
  content: string;
  content_html: string;
  category: string;
  author: string;
  publish_date: string;
  read_time: string;
  published: number;
  header_image: string | null;
  created_at: string;
  updated_at: string;
  meta_title: string | null;
  meta_description: string | null;
  header_image_alt: string | null;
  noindex: Generated<number>;
  /** The slug rule (docs/product/contract.md#slugs) applied to `category`; "" when that has no category page (ADR 041). */
  category_slug: Generated<string>;
  /** E-mail the post to the subscribers when it becomes public (migration 032, ADR 072). */
  email_subscribers: Generated<number>;
}

interface AdminUsersTable {
  id: string;
  email: string;
  password_hash: string;
  created_at: string;
  updated_at: string;
  /** Shown in the Administrators screen; null for accounts made before migration 014 or by the CLI. */
  name: string | null;
  last_sign_in_at: string | null;
  /** The TOTP secret while 2FA is on: `aes-256-gcm:...` or `plain:BASE32` (ADR 037). */
  totp_secret: string | null;
  /** A secret handed out by 2FA setup and not yet confirmed with a code. */
  totp_pending_secret: string | null;
  totp_enabled_at: string | null;
  /** The time step of the last accepted code; a code is accepted once. */
  totp_last_step: number | null;
  /** JSON array of the unused recovery codes' SHA-256 hashes (hex). */
  recovery_codes: string | null;
}

interface SessionsTable {
  id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  /** When a request last used it (refreshed at most every few minutes); null only on rows from before migration 006. */
  last_seen_at: string | null;
  /** The browser's User-Agent at sign-in (cut to 300 characters); null on rows from before migration 013. */
  user_agent: string | null;
  /**
   * The client's network at sign-in, never its full address: 203.0.113.0/24,
   * 2001:db8:1::/48 (platform/client-network.server.ts; migration 025 rewrote
   * older rows). Null when not known.
   */
  ip_address: string | null;
}

interface SetupTokensTable {
  token_hash: string;
  created_at: string;
  expires_at: string;
}

/** Throttle counters (platform/throttle.server.ts): the key is a keyed hash, never an address or e-mail (migration 024). */
interface RateLimitsTable {
  key: string;
  points: Generated<number>;
  expire: number | null;
}

interface ImagesTable {
  /** SHA-256 (hex) of the uploaded bytes. */
  id: string;
  source_format: string;
  width: number;
  height: number;
  content_type: string;
  byte_size: number;
  bytes: Uint8Array;
  created_at: string;
}

interface ImageVariantsTable {
  image_id: string;
  width: number;
  height: number;
  format: string;
  content_type: string;
  byte_size: number;
  bytes: Uint8Array;
}

interface ContentVersionTable {
  id: number;
  /** bigint: a string from PostgreSQL, a number from SQLite. */
  version: number | string;
}

export interface ContactMessagesTable {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  preferred_contact: string;
  service: string;
  message: string;
  created_at: string;
  read_at: string | null;
  notice_status: "off" | "pending" | "sent" | "failed";
  notice_attempts: Generated<number>;
  notice_next_at: string | null;
  notice_error: string | null;
  /** The lead's place in the pipeline (migration 030, ADR 070): new, contacted, qualified, won, lost or spam. */
  status: Generated<"new" | "contacted" | "qualified" | "won" | "lost" | "spam">;
  /** The owner's private note. */
  note: string | null;
  /** The day to follow up, YYYY-MM-DD. */
  follow_up_at: string | null;
  /** The page of this site the form was sent from, and the visit's source and campaign (the analytics' rule). */
  source_page: string | null;
  source: string | null;
  campaign: string | null;
  /** Why the site judged it spam: honeypot, links-only. */
  spam_reason: string | null;
  /** The Message-ID of its notice (`<...>`): replies and the acknowledgement thread under it. */
  mail_id: string | null;
  /** A booking's lead (migration 031, ADR 071): the call's start and end (ISO, UTC), and booked or cancelled. */
  call_start: string | null;
  call_end: string | null;
  call_status: "booked" | "cancelled" | null;
}

/** The owner's availability for calls (migration 031, ADR 071): one row, id 1. */
interface BookingSettingsTable {
  id: number;
  enabled: number;
  /** An IANA name: the weekly hours and the dates off are in it. */
  time_zone: string;
  slot_minutes: number;
  buffer_minutes: number;
  min_notice_hours: number;
  horizon_days: number;
  /** JSON: [{day (1 Monday to 7 Sunday), start, end ("HH:MM")}]. */
  weekly: string;
  /** JSON: ["YYYY-MM-DD"], days in time_zone with no calls. */
  days_off: string;
  updated_at: string;
}

/** A call a visitor booked (migration 031, ADR 071). */
interface BookingsTable {
  id: string;
  /** ISO instants, UTC. */
  start_at: string;
  end_at: string;
  /** start_at while the booking stands, NULL once cancelled: unique, so one booking per slot. */
  slot: string | null;
  status: "confirmed" | "cancelled";
  name: string;
  email: string;
  /** The e-mail lower-cased without a +tag: open bookings per address are counted by it. */
  mailbox: string;
  phone: string | null;
  message: string;
  /** The visitor's time zone as their browser said, for their e-mails' times; null: the owner's. */
  time_zone: string | null;
  /** The invitation's iCalendar UID and SEQUENCE (raised by each change). */
  uid: string;
  sequence: number;
  /** The lead in the inbox. */
  message_id: string | null;
  created_at: string;
  cancelled_at: string | null;
}

/** One upload of a WordPress or Ghost export and its report (migration 034, ADR 074). */
export interface ImportsTable {
  id: string;
  /** receiving (the file is still arriving), running, done or failed. */
  status: string;
  kind: string | null;
  file_name: string;
  byte_size: Generated<number | string>;
  site_url: string | null;
  total: number | null;
  processed: Generated<number>;
  created: Generated<number>;
  skipped: Generated<number>;
  /** Of the skipped, those an earlier import (or run) had brought already. */
  known: Generated<number>;
  redirects: Generated<number>;
  images_fetched: Generated<number>;
  images_failed: Generated<number>;
  /** A JSON array of at most 100 strings. */
  problems: Generated<string>;
  more_problems: Generated<number>;
  error: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** An import's file in pieces, until the import ends. */
interface ImportChunksTable {
  import_id: string;
  seq: number;
  bytes: Uint8Array;
}

/** A source post imported (or found already here): what makes a second import add nothing. */
interface ImportItemsTable {
  source_key: string;
  import_id: string;
  post_id: string | null;
  created_at: string;
}

/** An image URL an import fetched, and the stored upload's URL. */
interface ImportImagesTable {
  /** SHA-256 (hex) of the absolute URL. */
  url_hash: string;
  image_url: string;
  created_at: string;
}

/** A shared link's picture, keyed by its page and what it shows (migration 033, ADR 073). */
interface ShareCardsTable {
  /** SHA-256 (hex, 32 characters) of the page, the card's subject and the renderer's version. */
  key: string;
  /** The path of the page that names it: `/`, `/blog/{slug}`, ... */
  page: string;
  /** A 1200x630 JPEG. */
  bytes: Uint8Array;
  /** When the page first named it. */
  named_at: string;
  /** When a card the page named later was stored; null while it is the page's newest. */
  superseded_at: string | null;
}

/** An address that asked for the newsletter, or that the owner imported (migration 032, ADR 072). */
interface SubscribersTable {
  id: string;
  /** Lower-cased; unique. */
  email: string;
  status: "pending" | "confirmed" | "unsubscribed";
  /** How it came: the form (double opt-in) or an import the owner vouched for. */
  consent: "form" | "import";
  created_at: string;
  /** When the last confirmation mail was queued: one a day at most. */
  confirm_sent_at: string | null;
  confirmed_at: string | null;
  unsubscribed_at: string | null;
}

/** A post e-mailed to the subscribers: one per post at most (ADR 072). */
interface NewsletterMailingsTable {
  id: string;
  post_id: string;
  status: "sending" | "done";
  recipients: number;
  sent: Generated<number>;
  failed: Generated<number>;
  created_at: string;
  finished_at: string | null;
}

/** One subscriber's send of a mailing, fixed when it starts (ADR 072). */
interface NewsletterRecipientsTable {
  mailing_id: string;
  subscriber_id: string;
  status: "pending" | "sent" | "failed" | "skipped";
  sent_at: string | null;
  error: string | null;
}

/** A reply the owner wrote to a message, sent by a `contact.reply` job (ADR 070). */
export interface MessageRepliesTable {
  id: string;
  message_id: string;
  body: string;
  status: "pending" | "sent" | "failed";
  attempts: Generated<number>;
  last_error: string | null;
  /** The client's Idempotency-Key: one reply per message and key. */
  idempotency_key: string | null;
  created_at: string;
  sent_at: string | null;
}

/** An answer the owner reuses in replies (ADR 070). */
interface SavedRepliesTable {
  id: string;
  name: string;
  body: string;
  created_at: string;
  updated_at: string;
}

/**
 * SQLite only (migration 009, ADR 030): each post's sort keys beside the
 * FTS5 trigram index of the titles (posts_title_search), both under the
 * post's rowid, written by triggers on posts and only read by the app.
 */
interface PostsTitleSearchKeysTable {
  post_rowid: number;
  id: string;
  publish_date: string;
  /** lower(title) */
  title: string;
}

/** One row, id 1 (migration 010, ADR 034). Null: not set, shown nowhere. */
export interface SiteSettingsTable {
  id: number;
  company_name: string;
  contact_email: string | null;
  contact_phone: string | null;
  location: string | null;
  facebook_url: string | null;
  instagram_url: string | null;
  linkedin_url: string | null;
  meta_description: string | null;
  notify_email: string | null;
  /** 1: each new message that is not spam gets an acknowledgement e-mail (migration 030). */
  acknowledge_messages: Generated<number>;
  /** The acknowledgement's text; null: the default (app/content/leads.ts). */
  acknowledgement_text: string | null;
  updated_at: string;
}

/**
 * Which uploads a post uses (migration 012, ADR 036): one row per post and
 * image, written with every write of the post. A post's row going deletes
 * its rows; an image with rows cannot be deleted (no ON DELETE).
 */
interface ImageReferencesTable {
  post_id: string;
  image_id: string;
}

/** Which uploads an editable page's published document or draft uses (migration 022, ADR 053). */
interface PageImageReferencesTable {
  page: string;
  image_id: string;
}

/** One-time invitations to become an administrator (migration 014, ADR 038). */
interface AdminInvitesTable {
  id: string;
  /** SHA-256 (hex) of the token in the link; the token itself is never stored. */
  token_hash: string;
  email: string;
  /** The inviting administrator's e-mail at the time. */
  invited_by: string;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  revoked_at: string | null;
}

/** Who did what, when and from where (migration 014, ADR 038). */
interface AuditLogTable {
  id: string;
  created_at: string;
  action: string;
  /** The administrator's id; null for a failed sign-in. */
  actor_id: string | null;
  /**
   * The administrator's e-mail at the time. A failed sign-in: the
   * administrator's e-mail it tried, or null when it tried one that is no
   * administrator's (migration 025 cleared older strangers' e-mails).
   */
  actor_email: string | null;
  target: string | null;
  /** The client's network, never its full address, as in sessions.ip_address; null when not known. */
  client_address: string | null;
  user_agent: string | null;
}

/**
 * A saved version of a document (migration 027, ADR 064): a post's, written
 * with every save, or a page's, written with every publish; the newest 50 per
 * document kept. `document_id` is a post's id or a page's name.
 */
interface DocumentRevisionsTable {
  id: string;
  /** "post" or "page". */
  document_kind: string;
  document_id: string;
  /** 1, 2, 3... per document, in order (a page's: its published version, 0 the original copy). */
  number: number;
  /** What the History list shows of it (a post's title); empty for a page. */
  label: string;
  /** The document as JSON: a post's {title, excerpt, content, fields}, a page's document. */
  state: string;
  /** Who saved it; null when not known (kept when the account goes). */
  saved_by_id: string | null;
  /** The administrator's name or e-mail at the time. */
  saved_by: string | null;
  saved_at: string;
}

/**
 * The unsaved state of a document, kept by autosave (migration 027, ADR 064):
 * one per document and administrator (posts), or one shared draft per
 * document (pages: `admin_id` null).
 */
interface DocumentDraftsTable {
  id: string;
  document_kind: string;
  document_id: string;
  admin_id: string | null;
  /** The draft as JSON, as a revision's state. */
  state: string;
  /** The saved version it was made over: a post's updatedAt, a page's published version. */
  base_version: string;
  /** 1, 2, 3... per save of this draft: a tab saving over a draft it has not seen gets a conflict. */
  draft_version: number;
  saved_at: string;
  saved_by: string | null;
}

/** Secret share links of a document (migration 027, ADR 064): only the token's SHA-256 is kept. */
interface ShareLinksTable {
  id: string;
  document_kind: string;
  document_id: string;
  /** SHA-256 (hex) of the token in the link; the token itself is never stored. */
  token_hash: string;
  /** The administrator who made it. */
  created_by: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

/** An old address and where it now leads (migration 021, ADR 054). */
export interface RedirectsTable {
  id: string;
  /** A path on this site, as checkFromPath spells it; unique. */
  from_path: string;
  /** A path on this site (with its query) or an https address. */
  to_target: string;
  /** The path part of a target on this site (no query); null for an https address. */
  to_path: string | null;
  /** 301 or 302. */
  status: number;
  /** 1: made by the site when a post or category moved; 0: by the owner. */
  automatic: number;
  /** 1: an old address of an imported post or category (migration 034); not counted in the owner's limit. */
  imported: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** A path that answered 404 (migration 021, ADR 054): bounded in number, the least hit go first. */
interface NotFoundPathsTable {
  path: string;
  hits: number;
  last_seen_at: string;
  referrer_host: string | null;
}

/** The published document of an editable page (ADR 053); no row: its original copy. */
interface SiteContentTable {
  name: string;
  /** The document's JSON (app/lib/site-content.ts). */
  document: string;
  /** 1, 2, 3... per page, one per publish; 0 is the original copy. */
  version: number;
  published_at: string;
  /** The administrator's name or e-mail at the time; null for the original copy. */
  published_by: string | null;
}

/** One day of analytics (migration 023, ADR 056): totals. `day` is YYYY-MM-DD, UTC. */
interface AnalyticsDaysTable {
  day: string;
  views: number;
  visitors: number;
  /** Contact messages sent that day. */
  conversions: number;
  /** Visitor hashes written that day: they stop at a ceiling (analytics/store.server.ts). */
  marks: number;
}

/** A day's count for one key of one dimension (page, source, campaign, device, conversion_page, conversion_source). */
interface AnalyticsCountsTable {
  day: string;
  dimension: string;
  key: string;
  /** Views; contact messages for the conversion dimensions. */
  hits: number;
  visitors: number;
}

/** The day's random salt of the visitor hash, shared by every process; deleted once the day is over. */
interface AnalyticsSaltsTable {
  day: string;
  salt: string;
}

/** Today's visitor hashes by dimension key, so that each visitor counts once across processes; deleted with the salt. */
interface AnalyticsVisitorHashesTable {
  day: string;
  hash: string;
  dimension: string;
  key: string;
}

/** Today's per-address tallies of the analytics (migration 026): `hash` is the address's under the day's salt. */
interface AnalyticsAddressesTable {
  day: string;
  hash: string;
  /** Visitors counted from this address today: they stop at a cap (analytics/store.server.ts). */
  visitors: number;
  /** Sources and campaigns held for this address today: they stop at a budget. */
  held: number;
}

/** A source or campaign seen from one address only so far today (migration 026); its views are under "(other)". */
interface AnalyticsHeldKeysTable {
  day: string;
  dimension: string;
  key: string;
  /** The hash of the address it was seen from. */
  address: string;
  hits: number;
  visitors: number;
}

/**
 * The throttles' hashing secret where the site has no key outside the
 * database (PostgreSQL without TOTP_ENCRYPTION_KEY): one row, made by the
 * first process that needs it (platform/throttle-key.server.ts).
 */
interface ThrottleSecretsTable {
  name: string;
  /** 32 random bytes, hex. */
  secret: string;
}

interface WebhooksTable {
  id: string;
  /** Where deliveries go: https to a public address unless OUTBOUND_ALLOW_PRIVATE (ADR 068). */
  url: string;
  /** The event names it is sent, as a JSON array. */
  events: string;
  /** The signing secret (whsec_...), sealed with the site's key: `aes-256-gcm:iv:tag:ciphertext` (ADR 047, 068). */
  secret: string;
  created_at: string;
}

interface WebhookDeliveriesTable {
  /** The `webhook-id` header of every attempt. */
  id: string;
  webhook_id: string;
  /** The event's id (unique with webhook_id); null for a test. */
  event_id: string | null;
  event: string;
  /** The JSON body every attempt sends: {type, timestamp, data}. */
  payload: string;
  /** pending, delivered or failed. */
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  last_attempt_at: string | null;
}

/** A durable job (app/server/jobs, ADR 067); `payload` is JSON. */
export interface JobsTable {
  id: string;
  kind: string;
  payload: string;
  status: "queued" | "running" | "done" | "failed";
  run_at: string;
  /** Runs begun so far: a claim adds one, so a run cut short by a dead process counts. */
  attempts: number;
  max_attempts: number;
  /** The claim that holds the job while it runs, and until when; null when no worker holds it. */
  lease_owner: string | null;
  lease_until: string | null;
  last_error: string | null;
  /** Unique: enqueueing the same work again (two requests, two processes) keeps one job. */
  idempotency_key: string | null;
  created_at: string;
  /** When it last changed: for a done or failed job, when it ended. */
  updated_at: string;
}

/** Off-site backups' last attempt: one row, id 1 (migration 036, ADR 076). */
interface BackupStatusTable {
  id: number;
  attempted_at: string;
  result: "ok" | "failed";
  /** A failure's short reason, never a secret; null after a success. */
  reason: string | null;
  /** The object written (a success) or being written (a failure). */
  object_key: string | null;
  /** Bytes of the object a success wrote. */
  byte_size: number | string | null;
  last_ok_at: string | null;
  /** The first failed attempt since the last success; null while backups succeed. */
  failing_since: string | null;
  /** 1 once this failure streak's e-mail went out (one per streak). */
  failure_mailed: number;
}

/** A recurring job's next run, claimed by one process (app/server/jobs/schedules.server.ts). */
interface JobSchedulesTable {
  name: string;
  next_run_at: string;
  last_run_at: string | null;
}

export interface Database {
  posts: PostsTable;
  admin_users: AdminUsersTable;
  sessions: SessionsTable;
  setup_tokens: SetupTokensTable;
  rate_limits: RateLimitsTable;
  images: ImagesTable;
  image_variants: ImageVariantsTable;
  content_version: ContentVersionTable;
  contact_messages: ContactMessagesTable;
  message_replies: MessageRepliesTable;
  saved_replies: SavedRepliesTable;
  booking_settings: BookingSettingsTable;
  bookings: BookingsTable;
  subscribers: SubscribersTable;
  newsletter_mailings: NewsletterMailingsTable;
  newsletter_recipients: NewsletterRecipientsTable;
  posts_title_search_keys: PostsTitleSearchKeysTable;
  site_settings: SiteSettingsTable;
  image_references: ImageReferencesTable;
  page_image_references: PageImageReferencesTable;
  admin_invites: AdminInvitesTable;
  audit_log: AuditLogTable;
  document_revisions: DocumentRevisionsTable;
  document_drafts: DocumentDraftsTable;
  share_links: ShareLinksTable;
  redirects: RedirectsTable;
  not_found_paths: NotFoundPathsTable;
  site_content: SiteContentTable;
  analytics_days: AnalyticsDaysTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  analytics_counts: AnalyticsCountsTable;
  analytics_salts: AnalyticsSaltsTable;
  analytics_visitor_hashes: AnalyticsVisitorHashesTable;
  analytics_addresses: AnalyticsAddressesTable;
  analytics_held_keys: AnalyticsHeldKeysTable;
  throttle_secrets: ThrottleSecretsTable;
  jobs: JobsTable;
  job_schedules: JobSchedulesTable;
  share_cards: ShareCardsTable;
  imports: ImportsTable;
  import_chunks: ImportChunksTable;
  import_items: ImportItemsTable;
  import_images: ImportImagesTable;
  backup_status: BackupStatusTable;
}
