import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";

/**
 * A real S3-compatible server (s3rver) on loopback for the off-site backup
 * tests (ADR 076), keeping its objects in a temporary folder and every
 * object event it emits (a put, a multipart upload's end, a delete).
 */
export interface TestS3Server {
  port: number;
  /** BACKUP_STORAGE_URL for `bucket` and `prefix`, with s3rver's own key and secret. */
  storageUrl(prefix: string): string;
  bucket: string;
  /** Every object event so far, in order: "ObjectCreated:Put", "ObjectRemoved:Delete"... and the key. */
  events: Array<{ name: string; key: string }>;
  stop(): Promise<void>;
}

/** s3rver checks signatures against this key and secret (its one account). */
export const S3RVER_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export async function startS3Server(bucket = "site-backups"): Promise<TestS3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "ojai-s3-"));
  const server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const events: TestS3Server["events"] = [];
  server.on("event", (event) => {
    for (const record of event.Records) events.push({ name: record.eventName, key: record.s3.object.key });
  });
  const { port } = await server.run();
  // Removed when the test process ends, never at stop(): a request s3rver
  // was still handling (an upload the test cut off) would go on to open its
  // object files, and their folder gone, fail as an uncaught ENOENT.
  process.once("exit", () => fs.rmSync(directory, { recursive: true, force: true }));
  let stopped = false;
  return {
    port,
    bucket,
    events,
    storageUrl: (prefix) =>
      `s3+http://${S3RVER_CREDENTIALS.accessKeyId}:${S3RVER_CREDENTIALS.secretAccessKey}@127.0.0.1:${port}/${bucket}/${prefix}`,
    async stop() {
      if (stopped) return;
      stopped = true;
      // Kept-alive sockets (a test's own S3 client) would hold close() open.
      const closed = server.close();
      server.httpServer.closeAllConnections();
      await closed;
    },
  };
}
