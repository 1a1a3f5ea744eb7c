import path from "node:path";
import { z } from "zod";
import { isValidPhone, SETTINGS_LIMITS } from "~/lib/site-settings";

/**
 * Environment configuration (docs/configuration.md). Parsed once at start; a bad value
 * stops the start with one line naming the variable.
 */

const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no"], {
    error: "must be true or false",
  })
  .transform((value) => value === "true" || value === "1" || value === "yes");

const absoluteHttpUrl = z
  .url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" })
  .transform((value) => new URL(value).origin);

/** A whole number in [min, max]; every refusal says "must be {what}". */
const wholeNumber = (min: number, max: number, what: string) => {
  const error = `must be ${what}`;
  return z.coerce.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

/** Exactly 32 bytes written as standard base64 (44 characters, one "=" at the end). */
export function isBase64Key(value: string): boolean {
  return /^[\d+/a-z]{43}=$/i.test(value) && Buffer.from(value, "base64").length === 32;
}

const envSchema = z
  .object({
    PORT: wholeNumber(0, 65535, "a whole number from 0 to 65535").default(3000),
    HOST: z.string().trim().min(1, { error: "must not be empty" }).default("0.0.0.0"),
    DATABASE_URL: optionalString.refine(
      (value) =>
        value === undefined ||
        /^postgres(?:ql)?:\/\//.test(value) ||
        value.startsWith("file:") ||
        !value.includes("://"),
      { error: "must be postgres://..., file:PATH or a file path" },
    ),
    SITE_URL: optionalString.pipe(absoluteHttpUrl.optional()),
    ADMIN_EMAIL: optionalString.pipe(z.email({ error: "must be an e-mail address" }).optional()),
    ADMIN_PASSWORD: optionalString.pipe(z.string().min(10, { error: "must be at least 10 characters" }).optional()),
    SEED_SAMPLE_POSTS: booleanFlag.default(true),
    SMTP_URL: optionalString.pipe(
      z.url({ protocol: /^smtps?$/, error: "must be smtp://... or smtps://..." }).optional(),
    ),
    CONTACT_NOTIFY_TO: optionalString.pipe(z.email({ error: "must be an e-mail address" }).optional()),
    LOG_LEVEL: z
      .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
        error: "must be one of fatal, error, warn, info, debug, trace, silent",
      })
      .default("info"),
    TRUST_PROXY: z.string().trim().default("loopback"),
    KEEP_ALIVE_SECONDS: wholeNumber(1, 600, "a whole number of seconds from 1 to 600").default(5),
    PASSWORD_HASH_COST: z.enum(["standard", "test"], { error: "must be standard or test" }).default("standard"),
    PAGE_CACHE_MB: wholeNumber(0, 1024, "a whole number of megabytes from 0 to 1024").default(32),
    PAGE_CACHE_STALE_SECONDS: wholeNumber(0, 604_800, "a whole number of seconds from 0 to 604800").default(3600),
    AUDIT_RETENTION_DAYS: wholeNumber(1, 36500, "a whole number of days from 1 to 36500").default(365),
    ANALYTICS_RETENTION_DAYS: wholeNumber(1, 36500, "a whole number of days from 1 to 36500").default(730),
    OUTBOUND_ALLOW_PRIVATE: booleanFlag.default(false),
    // Set by systemd's StateDirectory= (deploy/systemd): the folder the service may write in.
    STATE_DIRECTORY: z.string().trim().min(1).optional(),
    JOB_WORKERS: wholeNumber(1, 32, "a whole number from 1 to 32").default(2),
    NEWSLETTER_RATE_PER_MINUTE: wholeNumber(1, 60_000, "a whole number from 1 to 60000").default(120),
    JOB_DELAY_SCALE: z.coerce
      .number({ error: "must be a number above 0 and at most 1" })
      .gt(0, { error: "must be a number above 0 and at most 1" })
      .max(1, { error: "must be a number above 0 and at most 1" })
      .default(1),
    JOB_RETENTION_SECONDS: wholeNumber(1, 31_536_000, "a whole number of seconds from 1 to 31536000").default(86_400),
    JOB_FAILED_RETENTION_DAYS: wholeNumber(1, 3650, "a whole number of days from 1 to 3650").default(30),
    COMPANY_NAME: optionalString.pipe(
      z
        .string()
        .max(SETTINGS_LIMITS.companyName, { error: `must be at most ${SETTINGS_LIMITS.companyName} characters` })
        .optional(),
    ),
    CONTACT_EMAIL: optionalString.pipe(z.email({ error: "must be an e-mail address" }).optional()),
    CONTACT_PHONE: optionalString.pipe(
      z.string().refine(isValidPhone, { error: "must be a phone number (digits, spaces, + ( ) - or dots)" }).optional(),
    ),
    BACKUP_STORAGE_URL: optionalString,
    BACKUP_INTERVAL_MINUTES: wholeNumber(1, 525_600, "a whole number of minutes from 1 to 525600").default(1440),
    BACKUP_KEEP: wholeNumber(1, 1000, "a whole number from 1 to 1000").default(14),
    BACKUP_TIME_SCALE: z.coerce
      .number({ error: "must be a number above 0 and at most 1" })
      .gt(0, { error: "must be a number above 0 and at most 1" })
      .max(1, { error: "must be a number above 0 and at most 1" })
      .default(1),
    TOTP_ENCRYPTION_KEY: optionalString.pipe(
      z
        .string()
        .refine(isBase64Key, { error: "must be 32 bytes in base64 (make one with: openssl rand -base64 32)" })
        .transform((value) => Buffer.from(value, "base64"))
        .optional(),
    ),
  })
  .superRefine((env, ctx) => {
    if (env.PASSWORD_HASH_COST === "test" && env.SITE_URL?.startsWith("https:")) {
      ctx.addIssue({
        code: "custom",
        path: ["PASSWORD_HASH_COST"],
        message: "must be standard for a site at an https address: test is for the test suite only",
      });
    }
    if (Boolean(env.ADMIN_EMAIL) !== Boolean(env.ADMIN_PASSWORD)) {
      ctx.addIssue({
        code: "custom",
        path: [env.ADMIN_EMAIL ? "ADMIN_PASSWORD" : "ADMIN_EMAIL"],
        message: "must be set together with " + (env.ADMIN_EMAIL ? "ADMIN_EMAIL" : "ADMIN_PASSWORD"),
      });
    }
    if (env.BACKUP_STORAGE_URL !== undefined) {
      const parsed = parseStorageUrl(env.BACKUP_STORAGE_URL, env.OUTBOUND_ALLOW_PRIVATE);
      if (typeof parsed === "string") ctx.addIssue({ code: "custom", path: ["BACKUP_STORAGE_URL"], message: parsed });
    }
  });

/**
 * Where off-site backups go (ADR 076): an S3-compatible bucket, and the
 * folder (prefix) in it the site's objects live under. Never logged whole:
 * `secretAccessKey` is a password.
 */
export interface BackupStorageConfig {
  /** https://HOST[:PORT], or http:// for s3+http:// (OUTBOUND_ALLOW_PRIVATE=true only). */
  endpoint: string;
  /** The endpoint's host as written (a name or an address; brackets of IPv6 taken off). */
  host: string;
  bucket: string;
  /** "" or a path without slashes at either end ("site/backups"). */
  prefix: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** S3's rules for a bucket's name (3 to 63 lower-case letters, digits, dots and dashes). */
const BUCKET_NAME = /^[\da-z][\d.a-z-]{1,61}[\da-z]$/;
/** A prefix's folders: letters, digits, dots, dashes and underscores, joined by slashes. */
const PREFIX_PART = /^[\w.-]{1,100}$/;
const REGION_NAME = /^[\da-z-]{1,40}$/;
const MAX_STORAGE_URL_LENGTH = 2048;

/** decodeURIComponent, or undefined for a malformed escape. */
function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * BACKUP_STORAGE_URL, `s3://KEY:SECRET@HOST[:PORT]/BUCKET[/PREFIX][?region=NAME]`
 * (`s3+http://` for a plain-http endpoint, allowed only with
 * OUTBOUND_ALLOW_PRIVATE=true), read into its parts; or why it is refused.
 * The reason never holds the URL or any part of it: it goes to logs.
 * Whether the host's addresses are allowed is checked at each connection
 * (outbound), not here: DNS answers change.
 */
function parseStorageUrl(text: string, allowPrivate: boolean): BackupStorageConfig | string {
  const shape = "must be s3://KEY:SECRET@HOST[:PORT]/BUCKET[/PREFIX]";
  if (text.length > MAX_STORAGE_URL_LENGTH) return `must be at most ${MAX_STORAGE_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return shape;
  }
  if (url.protocol !== "s3:" && url.protocol !== "s3+http:") return shape;
  if (url.protocol === "s3+http:" && !allowPrivate)
    return "must start with s3:// (https): s3+http:// needs OUTBOUND_ALLOW_PRIVATE=true";
  const accessKeyId = decoded(url.username);
  const secretAccessKey = decoded(url.password);
  if (!accessKeyId || !secretAccessKey) return `${shape}, with the key and secret percent-encoded`;
  if (!url.hostname) return shape;
  // Empty pieces (a slash at either end, or two together) are dropped: "/bucket/site/" is bucket and "site".
  const [bucket = "", ...folders] = url.pathname.split("/").filter((piece) => piece !== "");
  if (!BUCKET_NAME.test(bucket)) return "must name a bucket (3 to 63 lower-case letters, digits, dots and dashes)";
  if (folders.some((folder) => !PREFIX_PART.test(folder)))
    return "must have a prefix of letters, digits, dots, dashes and underscores between slashes";
  const prefix = folders.join("/");
  if (prefix.length > 200) return "must have a prefix of at most 200 characters";
  const region = url.searchParams.get("region") ?? "us-east-1";
  if (!REGION_NAME.test(region)) return "must name a region of lower-case letters, digits and dashes";
  const scheme = url.protocol === "s3:" ? "https" : "http";
  return {
    endpoint: `${scheme}://${url.host}`,
    host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    bucket,
    prefix,
    region,
    accessKeyId,
    secretAccessKey,
  };
}

const DEFAULT_COMPANY_NAME = "Ojai Technology Services";

export type DatabaseTarget = { kind: "sqlite"; file: string } | { kind: "postgres"; url: string };

export interface Config {
  port: number;
  host: string;
  database: DatabaseTarget;
  /**
   * Where the site may write files of its own (an uploaded backup on its way
   * to a restore, ADR 078): the SQLite database's folder; on PostgreSQL
   * systemd's STATE_DIRECTORY (its first folder), else ./data.
   */
  dataDir: string;
  siteUrl: string;
  secureCookies: boolean;
  admin: { email: string; password: string } | undefined;
  seedSamplePosts: boolean;
  smtp: { url: string; notifyTo: string | undefined } | undefined;
  logLevel: string;
  trustProxy: string;
  /**
   * How long an idle keep-alive connection stays open. A proxy in front must
   * close its idle connections sooner (deploy/nginx: 4 s, ADR 033); one that
   * keeps them longer (a load balancer's 60 s) needs this raised above its own.
   */
  keepAliveTimeoutMs: number;
  /**
   * PASSWORD_HASH_COST: "standard" (OWASP's scrypt setting, ADR 021) or
   * "test", a far cheaper one the test suite's servers use (ADR 058); refused
   * with an https SITE_URL, and the server warns at every start.
   */
  passwordHashCost: "standard" | "test";
  /**
   * TOTP_ENCRYPTION_KEY: the AES-256-GCM key two-factor secrets are stored
   * with (ADR 037, 047); unset, a SQLite site makes its own key file beside
   * the database (two-factor-key.server.ts) and a PostgreSQL site has none.
   */
  totpEncryptionKey: Buffer | undefined;
  /** The page cache's size in bytes (its bodies and their compressed copies); 0 turns it off. */
  pageCacheBytes: number;
  /** While the database cannot be reached, cached pages are still served for this long after it last answered (ADR 075). */
  pageCacheStaleMs: number;
  /** Audit log entries older than this many days are pruned (ADR 038). */
  auditRetentionDays: number;
  /** The analytics' daily rows older than this many days are pruned (ADR 056). */
  analyticsRetentionDays: number;
  /** The durable jobs (ADR 067). */
  jobs: {
    /** JOB_WORKERS: jobs one process runs at a time. */
    workers: number;
    /**
     * JOB_DELAY_SCALE: every retry delay is multiplied by it (1 in production;
     * the test suite's servers use 0.001, as PASSWORD_HASH_COST=test cheapens
     * hashing); the server warns at every start when it is not 1.
     */
    delayScale: number;
    /** JOB_RETENTION_SECONDS: done jobs are pruned this long after they ended. */
    doneRetentionMs: number;
    /** JOB_FAILED_RETENTION_DAYS: failed jobs are kept this long (and at most FAILED_JOBS_KEPT of them). */
    failedRetentionMs: number;
  };
  /**
   * NEWSLETTER_RATE_PER_MINUTE: the most newsletter e-mails the site hands
   * its mail server a minute (ADR 072), so a shared provider's limits hold.
   */
  newsletterRatePerMinute: number;
  /**
   * OUTBOUND_ALLOW_PRIVATE: whether the site's own requests (webhooks) may
   * use http:// and reach loopback or private addresses (ADR 068); for tests
   * and private networks, off by default.
   */
  outboundAllowPrivate: boolean;
  /** Off-site backups (ADR 076); undefined when BACKUP_STORAGE_URL is not set. */
  backups:
    | {
        storage: BackupStorageConfig;
        /** BACKUP_INTERVAL_MINUTES times BACKUP_TIME_SCALE (a test's knob, 1 otherwise), at least a second. */
        everyMs: number;
        /** BACKUP_KEEP: the newest this many objects are kept. */
        keep: number;
      }
    | undefined;
  /**
   * The first start's site settings (ADR 034): saved in the database then,
   * and changed in Admin > Settings afterwards. Unset values stay unset: no
   * placeholders.
   */
  company: {
    name: string;
    /** Whether COMPANY_NAME was set (else `name` is the built-in default). */
    nameFromEnvironment: boolean;
    email: string | undefined;
    phone: string | undefined;
    /** CONTACT_NOTIFY_TO: where contact notices go. */
    notifyTo: string | undefined;
  };
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

export function parseConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): Config {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const variable = String(issue.path[0] ?? "environment");
    // Never the value: it may be a password, or a URL with one in it, and
    // this line goes to logs. Our messages say what is expected instead.
    const raw = env[variable]?.trim();
    const echoes = raw !== undefined && raw.length >= 3 && issue.message.includes(raw);
    throw new ConfigError(`Invalid configuration: ${variable} ${echoes ? "is not valid" : oneLine(issue.message)}`);
  }
  const e = result.data;
  const siteUrl = e.SITE_URL ?? `http://localhost:${e.PORT}`;
  const database = resolveDatabase(e.DATABASE_URL, cwd);
  return {
    port: e.PORT,
    host: e.HOST,
    database,
    dataDir:
      database.kind === "sqlite"
        ? path.dirname(database.file)
        : path.resolve(cwd, e.STATE_DIRECTORY?.split(":")[0] || "data"),
    siteUrl,
    secureCookies: siteUrl.startsWith("https:"),
    admin: e.ADMIN_EMAIL && e.ADMIN_PASSWORD ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD } : undefined,
    seedSamplePosts: e.SEED_SAMPLE_POSTS,
    smtp: e.SMTP_URL ? { url: e.SMTP_URL, notifyTo: e.CONTACT_NOTIFY_TO } : undefined,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    keepAliveTimeoutMs: e.KEEP_ALIVE_SECONDS * 1000,
    passwordHashCost: e.PASSWORD_HASH_COST,
    pageCacheBytes: e.PAGE_CACHE_MB * 1024 * 1024,
    pageCacheStaleMs: e.PAGE_CACHE_STALE_SECONDS * 1000,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    analyticsRetentionDays: e.ANALYTICS_RETENTION_DAYS,
    outboundAllowPrivate: e.OUTBOUND_ALLOW_PRIVATE,
    newsletterRatePerMinute: e.NEWSLETTER_RATE_PER_MINUTE,
    jobs: {
      workers: e.JOB_WORKERS,
      delayScale: e.JOB_DELAY_SCALE,
      doneRetentionMs: e.JOB_RETENTION_SECONDS * 1000,
      failedRetentionMs: e.JOB_FAILED_RETENTION_DAYS * 86_400_000,
    },
    totpEncryptionKey: e.TOTP_ENCRYPTION_KEY,
    backups: backupsOf(e),
    company: {
      name: e.COMPANY_NAME ?? DEFAULT_COMPANY_NAME,
      nameFromEnvironment: e.COMPANY_NAME !== undefined,
      email: e.CONTACT_EMAIL,
      phone: e.CONTACT_PHONE,
      notifyTo: e.CONTACT_NOTIFY_TO,
    },
  };
}

function backupsOf(e: z.infer<typeof envSchema>): Config["backups"] {
  if (e.BACKUP_STORAGE_URL === undefined) return undefined;
  // Checked by the schema's refinement: a string here cannot happen.
  const storage = parseStorageUrl(e.BACKUP_STORAGE_URL, e.OUTBOUND_ALLOW_PRIVATE) as BackupStorageConfig;
  return {
    storage,
    everyMs: Math.max(1000, Math.round(e.BACKUP_INTERVAL_MINUTES * 60_000 * e.BACKUP_TIME_SCALE)),
    keep: e.BACKUP_KEEP,
  };
}

export function resolveDatabase(url: string | undefined, cwd: string): DatabaseTarget {
  if (url && /^postgres(?:ql)?:\/\//.test(url)) return { kind: "postgres", url };
  const file = url ? url.replace(/^file:/, "") : path.join("data", "site.db");
  return { kind: "sqlite", file: path.resolve(cwd, file) };
}

let current: Config | undefined;

/** The configuration of this process; parsed on first use. */
export function getConfig(): Config {
  current ??= parseConfig(process.env);
  return current;
}
