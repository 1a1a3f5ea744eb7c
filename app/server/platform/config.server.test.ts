import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "./config.server";

describe("parseConfig", () => {
  it("applies the documented defaults", () => {
    const config = parseConfig({}, "/srv/site");
    expect(config).toMatchObject({
      port: 3000,
      host: "0.0.0.0",
      database: { kind: "sqlite", file: "/srv/site/data/site.db" },
      siteUrl: "http://localhost:3000",
      secureCookies: false,
      admin: undefined,
      seedSamplePosts: true,
      smtp: undefined,
      logLevel: "info",
      pageCacheBytes: 32 * 1024 * 1024,
    });
  });

  it("reads each variable", () => {
    const config = parseConfig(
      {
        PORT: "8080",
        HOST: "127.0.0.1",
        DATABASE_URL: "postgres://u@127.0.0.1:5432/site",
        SITE_URL: "https://www.example.com/",
        ADMIN_EMAIL: "a@example.com",
        ADMIN_PASSWORD: "long-enough-pw",
        SEED_SAMPLE_POSTS: "false",
        SMTP_URL: "smtp://127.0.0.1:2525",
        CONTACT_NOTIFY_TO: "team@example.com",
        LOG_LEVEL: "debug",
        PAGE_CACHE_MB: "0",
        AUDIT_RETENTION_DAYS: "30",
        KEEP_ALIVE_SECONDS: "65",
        ANALYTICS_RETENTION_DAYS: "90",
        JOB_WORKERS: "4",
        JOB_DELAY_SCALE: "0.001",
        JOB_RETENTION_SECONDS: "600",
        JOB_FAILED_RETENTION_DAYS: "7",
      },
      "/srv",
    );
    expect(config).toMatchObject({
      port: 8080,
      host: "127.0.0.1",
      database: { kind: "postgres", url: "postgres://u@127.0.0.1:5432/site" },
      siteUrl: "https://www.example.com",
      secureCookies: true,
      admin: { email: "a@example.com", password: "long-enough-pw" },
      seedSamplePosts: false,
      smtp: { url: "smtp://127.0.0.1:2525", notifyTo: "team@example.com" },
      logLevel: "debug",
      pageCacheBytes: 0,
      auditRetentionDays: 30,
      keepAliveTimeoutMs: 65_000,
      analyticsRetentionDays: 90,
      jobs: { workers: 4, delayScale: 0.001, doneRetentionMs: 600_000, failedRetentionMs: 7 * 86_400_000 },
    });
    expect(parseConfig({}).auditRetentionDays).toBe(365);
    expect(parseConfig({}).keepAliveTimeoutMs).toBe(5_000);
    expect(parseConfig({}).passwordHashCost).toBe("standard");
    expect(parseConfig({ PASSWORD_HASH_COST: "test" }).passwordHashCost).toBe("test");
    expect(parseConfig({}).analyticsRetentionDays).toBe(730);
    expect(parseConfig({}).jobs).toEqual({
      workers: 2,
      delayScale: 1,
      doneRetentionMs: 86_400_000,
      failedRetentionMs: 30 * 86_400_000,
    });
  });

  it("the first start's site settings: the environment's, else the company name and no invented contact details", () => {
    expect(parseConfig({}).company).toEqual({
      name: "Ojai Technology Services",
      nameFromEnvironment: false,
      email: undefined,
      phone: undefined,
      notifyTo: undefined,
    });
    expect(
      parseConfig({
        COMPANY_NAME: " Ojai Works ",
        CONTACT_EMAIL: "hi@ojai.example",
        CONTACT_PHONE: "+1 805 555 0142",
        CONTACT_NOTIFY_TO: "leads@ojai.example",
      }).company,
    ).toEqual({
      name: "Ojai Works",
      nameFromEnvironment: true,
      email: "hi@ojai.example",
      phone: "+1 805 555 0142",
      notifyTo: "leads@ojai.example",
    });
  });

  it("SITE_URL follows PORT by default; a relative DATABASE_URL is a file under the working directory", () => {
    const config = parseConfig({ PORT: "4000", DATABASE_URL: "var/site.sqlite" }, "/srv");
    expect(config.siteUrl).toBe("http://localhost:4000");
    expect(config.database).toEqual({ kind: "sqlite", file: "/srv/var/site.sqlite" });
  });

  it.each([
    ["PORT", { PORT: "abc" }],
    ["PORT", { PORT: "70000" }],
    ["SITE_URL", { SITE_URL: "not a url" }],
    ["SITE_URL", { SITE_URL: "ftp://example.com" }],
    ["DATABASE_URL", { DATABASE_URL: "mysql://x" }],
    ["SEED_SAMPLE_POSTS", { SEED_SAMPLE_POSTS: "maybe" }],
    ["LOG_LEVEL", { LOG_LEVEL: "loud" }],
    ["PAGE_CACHE_MB", { PAGE_CACHE_MB: "-1" }],
    ["PAGE_CACHE_MB", { PAGE_CACHE_MB: "1.5" }],
    ["PAGE_CACHE_MB", { PAGE_CACHE_MB: "lots" }],
    ["AUDIT_RETENTION_DAYS", { AUDIT_RETENTION_DAYS: "0" }],
    ["AUDIT_RETENTION_DAYS", { AUDIT_RETENTION_DAYS: "a year" }],
    ["KEEP_ALIVE_SECONDS", { KEEP_ALIVE_SECONDS: "0" }],
    ["KEEP_ALIVE_SECONDS", { KEEP_ALIVE_SECONDS: "601" }],
    ["PASSWORD_HASH_COST", { PASSWORD_HASH_COST: "cheap" }],
    ["PASSWORD_HASH_COST", { PASSWORD_HASH_COST: "test", SITE_URL: "https://www.example.com" }],
    ["ADMIN_EMAIL", { ADMIN_EMAIL: "not-an-email", ADMIN_PASSWORD: "long-enough-pw" }],
    ["ADMIN_PASSWORD", { ADMIN_EMAIL: "a@example.com" }],
    ["ADMIN_PASSWORD", { ADMIN_EMAIL: "a@example.com", ADMIN_PASSWORD: "short" }],
    ["SMTP_URL", { SMTP_URL: "http://mail" }],
    ["CONTACT_PHONE", { CONTACT_PHONE: "call us" }],
    ["CONTACT_EMAIL", { CONTACT_EMAIL: "hello-at-example" }],
    ["COMPANY_NAME", { COMPANY_NAME: "x".repeat(101) }],
    ["TOTP_ENCRYPTION_KEY", { TOTP_ENCRYPTION_KEY: "too-short" }],
    ["TOTP_ENCRYPTION_KEY", { TOTP_ENCRYPTION_KEY: Buffer.alloc(16, 7).toString("base64") }],
    ["TOTP_ENCRYPTION_KEY", { TOTP_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("hex") }],
    ["JOB_WORKERS", { JOB_WORKERS: "0" }],
    ["JOB_DELAY_SCALE", { JOB_DELAY_SCALE: "0" }],
    ["JOB_DELAY_SCALE", { JOB_DELAY_SCALE: "2" }],
    ["JOB_DELAY_SCALE", { JOB_DELAY_SCALE: "fast" }],
    ["JOB_RETENTION_SECONDS", { JOB_RETENTION_SECONDS: "0" }],
    ["JOB_FAILED_RETENTION_DAYS", { JOB_FAILED_RETENTION_DAYS: "1.5" }],
  ])("a bad %s stops with one line naming it", (variable, env) => {
    let error: unknown;
    try {
      parseConfig(env);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message.split("\n")).toHaveLength(1);
    expect(message).toMatch(new RegExp(`^Invalid configuration: ${variable} `));
  });

  it.each([
    ["ADMIN_PASSWORD", { ADMIN_EMAIL: "a@example.com", ADMIN_PASSWORD: "hunter2!!" }, "hunter2!!"],
    ["DATABASE_URL", { DATABASE_URL: "mysql://site:db-s3cret-pw@db.internal/site" }, "db-s3cret-pw"],
    ["SMTP_URL", { SMTP_URL: "https://mailer:smtp-s3cret-pw@mail.example.com" }, "smtp-s3cret-pw"],
    ["SMTP_URL", { SMTP_URL: "smtp://mailer:smtp s3cret pw@mail example" }, "smtp s3cret pw"],
    ["SITE_URL", { SITE_URL: "ftp://user:site-s3cret-pw@example.com" }, "site-s3cret-pw"],
    ["ADMIN_EMAIL", { ADMIN_EMAIL: "owner-s3cret", ADMIN_PASSWORD: "long-enough-pw" }, "owner-s3cret"],
    ["PORT", { PORT: "port-s3cret" }, "port-s3cret"],
    ["TOTP_ENCRYPTION_KEY", { TOTP_ENCRYPTION_KEY: "totp-s3cret-key" }, "totp-s3cret-key"],
  ])("a bad %s is named without printing the value it rejects", (variable, env, secret) => {
    let message = "";
    try {
      parseConfig(env);
    } catch (caught) {
      expect(caught).toBeInstanceOf(ConfigError);
      message = (caught as Error).message;
    }
    expect(message).toMatch(new RegExp(`^Invalid configuration: ${variable} \\S`));
    expect(message.split("\n")).toHaveLength(1);
    expect(message).not.toContain(secret);
    // Nor any recognisable piece of it.
    for (const piece of secret.split(/[^a-z0-9]+/i).filter((p) => p.length >= 5)) expect(message).not.toContain(piece);
  });

  it("a valid ADMIN_PASSWORD is never part of an error about another variable", () => {
    expect(() => parseConfig({ ADMIN_EMAIL: "a@example.com", ADMIN_PASSWORD: "long-secret-pw", PORT: "x" })).toThrow(
      /^Invalid configuration: PORT must be a whole number from 0 to 65535$/,
    );
  });

  it("TOTP_ENCRYPTION_KEY: 32 bytes in base64, read as the key; unset, no key", () => {
    const key = Buffer.alloc(32, 9);
    expect(parseConfig({ TOTP_ENCRYPTION_KEY: key.toString("base64") }).totpEncryptionKey).toEqual(key);
    expect(parseConfig({}).totpEncryptionKey).toBeUndefined();
    expect(parseConfig({ TOTP_ENCRYPTION_KEY: "" }).totpEncryptionKey).toBeUndefined();
  });
});

describe("BACKUP_STORAGE_URL (ADR 076)", () => {
  const secret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYzEXAMPLEKEY";
  const url = (rest: string, scheme = "s3") => `${scheme}://AKIDEXAMPLE:${encodeURIComponent(secret)}@${rest}`;
  const refusal = (env: NodeJS.ProcessEnv) => {
    try {
      parseConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error.message;
      throw error;
    }
    throw new Error("accepted");
  };

  it("reads the key and secret percent-decoded, the endpoint, bucket, prefix and region; the knobs' defaults", () => {
    const config = parseConfig({
      BACKUP_STORAGE_URL: url("s3.eu-west-1.example.com/site-backups/ojai/prod/?region=eu-west-1"),
    });
    expect(config.backups).toEqual({
      storage: {
        endpoint: "https://s3.eu-west-1.example.com",
        host: "s3.eu-west-1.example.com",
        bucket: "site-backups",
        prefix: "ojai/prod",
        region: "eu-west-1",
        accessKeyId: "AKIDEXAMPLE",
        secretAccessKey: secret,
      },
      everyMs: 1440 * 60_000,
      keep: 14,
    });
    expect(parseConfig({}).backups).toBeUndefined();
    const local = parseConfig({
      BACKUP_STORAGE_URL: url("[::1]:9000/bkt", "s3+http"),
      OUTBOUND_ALLOW_PRIVATE: "true",
      BACKUP_INTERVAL_MINUTES: "1",
      BACKUP_KEEP: "3",
      BACKUP_TIME_SCALE: "0.05",
    }).backups!;
    expect([local.storage.endpoint, local.storage.host, local.storage.prefix, local.everyMs, local.keep]).toEqual([
      "http://[::1]:9000",
      "::1",
      "",
      3000,
      3,
    ]);
  });

  it("refuses a bad URL in one line that never holds the key or the secret", () => {
    const cases: Array<[NodeJS.ProcessEnv, string]> = [
      [{ BACKUP_STORAGE_URL: url("host.example.com/bkt", "s3+http") }, "OUTBOUND_ALLOW_PRIVATE=true"],
      [{ BACKUP_STORAGE_URL: url("host.example.com/bkt", "https") }, "must be s3://"],
      [{ BACKUP_STORAGE_URL: url("host.example.com/B_ad") }, "must name a bucket"],
      [{ BACKUP_STORAGE_URL: url("host.example.com/bkt/a b") }, "prefix"],
      [{ BACKUP_STORAGE_URL: "s3://host.example.com/bkt" }, "percent-encoded"],
      [{ BACKUP_STORAGE_URL: `s3://AKIDEXAMPLE:${secret}@host.example.com/bkt` }, "BACKUP_STORAGE_URL"],
      [{ BACKUP_STORAGE_URL: url("host.example.com/bkt"), BACKUP_INTERVAL_MINUTES: "0" }, "BACKUP_INTERVAL_MINUTES"],
      [{ BACKUP_STORAGE_URL: url("host.example.com/bkt"), BACKUP_KEEP: "0" }, "BACKUP_KEEP"],
    ];
    for (const [env, expected] of cases) {
      const message = refusal(env);
      expect(message).toContain(expected);
      expect(message.split("\n")).toHaveLength(1);
      for (const piece of [secret, encodeURIComponent(secret), "wJalrXUtnFEMI", "AKIDEXAMPLE"])
        expect(message).not.toContain(piece);
    }
  });
});
