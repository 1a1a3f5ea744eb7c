import { samplePosts } from "~/content/sample-posts";
import { getConfig } from "~/server/platform/config.server";
import { connect, migrateToLatest, type Db, type Connection } from "~/server/db/db.server";
import { getConnection } from "~/server/db/index.server";
import {
  init as initIdentity,
  countAdmins,
  upsertAdmin,
  createSetupToken,
  deleteExpiredSessions,
  getTotpKey,
  encryptPlainSecrets,
  unreadableSecrets,
} from "~/server/identity/index.server";
import { init as initMail } from "~/server/mail/index.server";
import { init as initMessages } from "~/server/messages/index.server";
import { init as initJobs } from "~/server/jobs/index.server";
import { init as initAudit } from "~/server/audit/index.server";
import { init as initAnalytics } from "~/server/analytics/index.server";
import { init as initRedirects } from "~/server/redirects/index.server";
import { init as initWebhooks } from "~/server/webhooks/index.server";
import { init as initBooking } from "~/server/booking/index.server";
import { init as initNewsletter } from "~/server/newsletter/index.server";
import { init as initShareCards } from "~/server/share-cards/index.server";
import { init as initImport } from "~/server/import/index.server";
import { init as initBackup } from "~/server/backup/index.server";
import {
  init as initPosts,
  countPosts,
  createPost,
  SlugTakenError,
  warnIfTitleSearchUnindexed,
} from "~/server/posts/index.server";
import { startClock } from "~/server/platform/clock.server";
import { getLogger } from "~/server/platform/logger.server";
import { ensureSiteSettings } from "~/server/settings/index.server";

/**
 * What each domain builds once per process (its throttles) and registers
 * with the jobs domain (its schedules and flushers; job kinds register as
 * their modules load), before any request: nothing is built on a first
 * request. prepareApp calls it; so does the CLI, whose commands use the
 * sign-in throttle and never start the workers (server/main.ts does).
 */
export function initDomains(connection: Connection = getConnection()): void {
  const config = getConfig();
  initMail(config.smtp);
  initJobs(config);
  initIdentity(connection);
  initMessages(connection);
  initPosts(connection);
  initAudit(config);
  initAnalytics(config);
  initRedirects();
  initWebhooks();
  initBooking(connection);
  initNewsletter(connection);
  initShareCards();
  initImport();
  initBackup(config);
}

/** Everything the app needs before it takes requests. Safe to run in several processes at once. */
export async function prepareApp(): Promise<void> {
  const config = getConfig();
  const log = getLogger();
  const connection = getConnection();
  const db = connection.db;
  // Site time first: every decision below and after (a seeded post's event, a due job) reads it (ADR 077).
  await startClock(db, log);
  initDomains(connection);

  const applied = await migrateOnce(connection);
  if (applied.length > 0) log.info({ migrations: applied }, "database migrated");
  await warnIfTitleSearchUnindexed(db);
  await ensureSiteSettings(db, config);

  if (config.seedSamplePosts) await seedSamplePosts(db);
  await deleteExpiredSessions(db);
  await prepareTwoFactorSecrets(db);

  if ((await countAdmins(db)) === 0) {
    if (config.admin) {
      await upsertAdmin(db, config.admin.email, config.admin.password);
      log.info({ email: config.admin.email.toLowerCase() }, "administrator created from ADMIN_EMAIL");
    } else {
      const token = await createSetupToken(db);
      const link = `${config.siteUrl}/admin/setup?token=${token}`;
      log.warn({ setupLink: link }, `No administrator exists yet. Create one at ${link}`);
    }
  }
}

/**
 * Runs the migrations. On PostgreSQL on a connection of their own without
 * the requests' query time-out (ADR 075): a migration may take longer, and
 * so may waiting for another process's migrations to end.
 */
async function migrateOnce(connection: Connection): Promise<string[]> {
  if (connection.kind !== "postgres") return migrateToLatest(connection.db);
  const migrating = connect(getConfig().database, { queryTimeoutMs: 0 });
  try {
    return await migrateToLatest(migrating.db);
  } finally {
    await migrating.db.destroy();
  }
}

/**
 * Two-factor secrets at rest (ADR 047): those an older version stored as
 * they were are encrypted now (idempotent, safe in several processes at
 * once); secrets this site's key cannot open are reported, since their
 * administrators cannot sign in until the right key is set or `reset-2fa`.
 */
async function prepareTwoFactorSecrets(db: Db): Promise<void> {
  const log = getLogger();
  const key = getTotpKey()?.key;
  const encrypted = await encryptPlainSecrets(db, key);
  if (encrypted > 0) log.info({ secrets: encrypted }, "two-factor secrets stored unencrypted were encrypted");
  const unreadable = await unreadableSecrets(db, key);
  if (unreadable.length > 0) {
    log.error(
      { administrators: unreadable },
      "two-factor secrets cannot be decrypted with this site's key: these administrators cannot sign in until TOTP_ENCRYPTION_KEY is the key they were stored with, or `npm run admin -- reset-2fa EMAIL`",
    );
  }
}

export async function seedSamplePosts(db: Db): Promise<number> {
  if ((await countPosts(db)) > 0) return 0;
  const now = Date.now();
  for (const sample of samplePosts) {
    await createPost(db, {
      title: sample.title,
      slug: sample.slug,
      excerpt: sample.excerpt,
      content: sample.content,
      category: sample.category,
      author: undefined,
      readTime: sample.readTime,
      metaTitle: null,
      metaDescription: null,
      headerImageAlt: null,
      noindex: false,
      // Samples are never mailed: nobody asked for them.
      emailSubscribers: false,
      published: true,
      publishDate: new Date(now - sample.daysAgo * 86_400_000).toISOString(),
      headerImage: null,
    }).catch((error: unknown) => {
      // Another process seeding at the same moment already added it.
      if (!(error instanceof SlugTakenError)) throw error;
    });
  }
  getLogger().info({ count: samplePosts.length }, "sample posts added to the empty database");
  return samplePosts.length;
}
