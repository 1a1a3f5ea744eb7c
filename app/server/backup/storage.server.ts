import fs from "node:fs";
import { PassThrough, Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ListObjectsV2CommandOutput, S3Client } from "@aws-sdk/client-s3";
import { loadOnce } from "~/lib/load-once";
import { checkOutboundEndpoint, outboundAgents } from "../outbound/index.server";
import type { BackupStorageConfig, Config } from "../platform/config.server";

/**
 * The bucket off-site backups go to (ADR 076): an S3-compatible store named
 * by BACKUP_STORAGE_URL, reached under the outbound rules (ADR 068: https,
 * public addresses, checked at each connection). Every object the site
 * writes, lists, downloads or deletes is `PREFIX/site-backup-*.tar`; nothing
 * else in the bucket is ever touched, so a bucket shared with other things
 * (or another site under another prefix) is safe.
 *
 * Used by the schedule (offsite.server.ts), the CLI (`backups`, `restore
 * --from-storage`) and the admin's restore, through the domain's index.
 *
 * The AWS SDK (half a megabyte of the server build) is loaded by the first
 * call that talks to the bucket, not compiled at every start: most sites
 * have no BACKUP_STORAGE_URL, and a site that has one uses it once a period
 * (ADR 088).
 */

/** One backup in the bucket, as `list()` answers it. */
export interface StoredBackup {
  /** The object's whole key, prefix included: what `download` takes. */
  key: string;
  /** Bytes. */
  size: number;
  lastModified: Date;
}

export interface BackupStorage {
  /** Where backups go, without the key and secret: "https://host/bucket/prefix" (for logs and screens). */
  readonly where: string;
  /** Streams `body` into the object `name` (a file name of objectName's) under the prefix; answers its key and size. */
  put(body: Readable, name: string, signal?: AbortSignal): Promise<{ key: string; size: number }>;
  /** The site's backups under the prefix, newest first (at most MAX_LISTED). */
  list(): Promise<StoredBackup[]>;
  /** Writes the object `key` (one `list()` gave) into the file `toFile`, created or replaced. */
  download(key: string, toFile: string): Promise<void>;
  /** Deletes all but the newest `keep` of the site's backups; answers the keys deleted. */
  deleteOld(keep: number): Promise<string[]>;
}

/** A backup's file name: site-backup-2026-11-29T0930Z.tar, seconds only for a period that is not whole minutes (tests). */
const BACKUP_NAME = /^site-backup-\d{4}-\d{2}-\d{2}T\d{4}(?:\d{2})?Z\.tar$/;
/** The most backups list() reads: 10 pages of S3's 1,000 (retention keeps 14 by default). */
const MAX_LISTED = 10_000;
/** Multipart pieces: 2 of 8 MiB in memory at a time, so an upload holds about 16 MiB whatever the site's size. */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_AT_ONCE = 2;
/** A connection that sends or receives nothing this long is given up. */
const SOCKET_IDLE_MS = 60_000;
const CONNECT_MS = 10_000;

/**
 * The object name of the backup for the period that starts at `periodStart`:
 * two processes (or a retry) in the same period name the same object, so a
 * period has one backup, however often it is written.
 */
export function objectName(periodStart: Date, everyMs: number): string {
  const text = periodStart.toISOString().replace(/:/g, "");
  // 2026-11-29T093000.000Z -> minutes, or seconds for a period under a whole minute.
  const stamp = everyMs % 60_000 === 0 ? text.slice(0, 15) : text.slice(0, 17);
  return `site-backup-${stamp}Z.tar`;
}

/** Whether `name` is one of the site's backups' file names (never anything else in the bucket). */
const isBackupName = (name: string) => BACKUP_NAME.test(name);

/** Where backups go, without the key and secret: "https://host/bucket/prefix" (for logs and screens). */
export const storageWhere = (storage: BackupStorageConfig) =>
  `${storage.endpoint}/${storage.bucket}${storage.prefix ? `/${storage.prefix}` : ""}`;

/** The storage BACKUP_STORAGE_URL names, or undefined when off-site backups are off. */
export function backupStorage(config: Pick<Config, "backups" | "outboundAllowPrivate">): BackupStorage | undefined {
  if (!config.backups) return undefined;
  return new S3BackupStorage(config.backups.storage, config.outboundAllowPrivate);
}

const awsSdk = loadOnce(async () => {
  const [s3, storage] = await Promise.all([import("@aws-sdk/client-s3"), import("@aws-sdk/lib-storage")]);
  return { s3, Upload: storage.Upload };
});

class S3BackupStorage implements BackupStorage {
  readonly where: string;
  private client: S3Client | undefined;
  private readonly folder: string;

  constructor(
    private readonly storage: BackupStorageConfig,
    private readonly allowPrivate: boolean,
  ) {
    this.folder = storage.prefix ? `${storage.prefix}/` : "";
    this.where = storageWhere(storage);
  }

  /** The SDK and this bucket's client, made on the first call that needs them. */
  private async sdk() {
    const { s3, Upload } = await awsSdk();
    if (!this.client) {
      const { httpAgent, httpsAgent } = outboundAgents({ allowPrivate: this.allowPrivate });
      this.client = new s3.S3Client({
        endpoint: this.storage.endpoint,
        region: this.storage.region,
        forcePathStyle: true,
        credentials: { accessKeyId: this.storage.accessKeyId, secretAccessKey: this.storage.secretAccessKey },
        // The SDK's own retries are few: the job retries with its back-off (ADR 067).
        maxAttempts: 2,
        requestHandler: { httpAgent, httpsAgent, connectionTimeout: CONNECT_MS, socketTimeout: SOCKET_IDLE_MS },
      });
    }
    return { s3, Upload, client: this.client };
  }

  /** The scheme and an address in the endpoint, before any request (a host name's addresses: at each connection). */
  private check() {
    checkOutboundEndpoint(this.storage.endpoint, { allowPrivate: this.allowPrivate });
  }

  async put(body: Readable, name: string, signal?: AbortSignal): Promise<{ key: string; size: number }> {
    if (!isBackupName(name)) throw new Error(`${name} is not a backup's name`);
    this.check();
    const key = this.folder + name;
    const counted = new PassThrough();
    // Piped before the SDK is awaited: the source (a tar pack the caller is
    // already writing) may fail meanwhile, and an error with no listener
    // would end the process. Its error reaches the upload through the
    // PassThrough, which pipeline destroys with it; awaited below.
    const piped = pipeline(body, counted);
    piped.catch(() => {});
    const sdk = await this.sdk().catch((error: unknown) => {
      counted.destroy();
      throw error;
    });
    let size = 0;
    counted.on("data", (chunk: Buffer) => (size += chunk.length));
    const upload = new sdk.Upload({
      client: sdk.client,
      params: { Bucket: this.storage.bucket, Key: key, Body: counted, ContentType: "application/x-tar" },
      partSize: PART_BYTES,
      queueSize: PARTS_AT_ONCE,
      leavePartsOnError: false,
    });
    const abort = () => void upload.abort().catch(() => undefined);
    signal?.addEventListener("abort", abort, { once: true });
    try {
      await Promise.all([upload.done(), piped]);
    } catch (error) {
      abort();
      counted.destroy();
      throw error;
    } finally {
      signal?.removeEventListener("abort", abort);
    }
    return { key, size };
  }

  async list(): Promise<StoredBackup[]> {
    this.check();
    const { s3, client } = await this.sdk();
    const found: StoredBackup[] = [];
    let token: string | undefined;
    let read = 0;
    do {
      const page: ListObjectsV2CommandOutput = await client.send(
        new s3.ListObjectsV2Command({
          Bucket: this.storage.bucket,
          Prefix: `${this.folder}site-backup-`,
          ContinuationToken: token,
        }),
      );
      for (const object of page.Contents ?? []) {
        read++;
        const key = object.Key ?? "";
        if (!isBackupName(key.slice(this.folder.length))) continue;
        found.push({ key, size: Number(object.Size ?? 0), lastModified: object.LastModified ?? new Date(0) });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token && read < MAX_LISTED);
    // The name is the period's start; an object written again later in its period is newer.
    return found.sort((a, b) => b.key.localeCompare(a.key) || b.lastModified.getTime() - a.lastModified.getTime());
  }

  async download(key: string, toFile: string): Promise<void> {
    if (!key.startsWith(this.folder) || !isBackupName(key.slice(this.folder.length)))
      throw new Error("not one of this site's backups");
    this.check();
    const { s3, client } = await this.sdk();
    const object = await client.send(new s3.GetObjectCommand({ Bucket: this.storage.bucket, Key: key }));
    if (!(object.Body instanceof Readable)) throw new Error("the storage sent no body");
    await pipeline(object.Body, fs.createWriteStream(toFile, { mode: 0o600 }));
  }

  async deleteOld(keep: number): Promise<string[]> {
    const old = (await this.list()).slice(Math.max(keep, 1)).map((backup) => backup.key);
    const { s3, client } = await this.sdk();
    for (const key of old) await client.send(new s3.DeleteObjectCommand({ Bucket: this.storage.bucket, Key: key }));
    return old;
  }
}
