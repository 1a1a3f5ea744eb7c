import type { Readable } from "node:stream";
import tar from "tar-stream";
import { describe, expect, it } from "vitest";
import { backupStorage } from "./storage.server";

/**
 * The off-site job writes the backup into a tar pack while `put` uploads it
 * (offsite.server.ts). `put` waits for the AWS SDK on its first call (ADR
 * 088); a pack that fails meanwhile (the database refused, the file gone)
 * must fail the upload, not end the process with an error nobody listens to.
 */
const storage = backupStorage({
  backups: {
    storage: {
      endpoint: "http://127.0.0.1:9",
      host: "127.0.0.1",
      bucket: "site",
      prefix: "",
      region: "us-east-1",
      accessKeyId: "key",
      secretAccessKey: "secret",
    },
    everyMs: 86_400_000,
    keep: 14,
  },
  outboundAllowPrivate: true,
})!;

describe("backupStorage().put", () => {
  it("rejects with the source's error when the source fails before the SDK is loaded", async () => {
    const pack = tar.pack();
    const uploading = storage.put(pack as unknown as Readable, "site-backup-2026-11-29T0930Z.tar");
    pack.destroy(new Error("the database refused the connection"));
    await expect(uploading).rejects.toThrow("the database refused the connection");
  });
});
