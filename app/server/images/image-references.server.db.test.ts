import { Migrator } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { imageIdsUsedBy } from "~/lib/images";
import { createTestDatabase } from "../../../tests/support/backend";
import { postRow } from "../../../tests/support/post-row";
import { resolveDatabase } from "../platform/config.server";
import { connect, migrateToLatest, type Connection } from "../db/db.server";
import { migrations } from "../db/migrations.server";

/** ADR 036: which uploads a post's text names, and migration 012 over the posts a site already has. */

const A = "a".repeat(64);
const B = "b".repeat(64);
const C = "c".repeat(64);

describe("imageIdsUsedBy", () => {
  it("finds the header image and every upload URL in the content, each upload once, any variant", () => {
    expect(
      imageIdsUsedBy({
        headerImage: `/images/${A}-1600.webp`,
        content: `![x](/images/${B}-320.webp) <img src="https://site.example/images/${B}-1280.webp"> ![y](/images/${A}-640.webp)`,
      }),
    ).toEqual([A, B]);
  });

  it("ignores external images, other paths and near misses", () => {
    expect(
      imageIdsUsedBy({
        headerImage: "https://cdn.example/photo.jpg",
        content: [
          `/images/${A.toUpperCase()}-640.webp`,
          `/images/${A.slice(1)}-640.webp`,
          `/images/${A}-640.png`,
          `/images/${A}-.webp`,
          `/pictures/${A}-640.webp`,
        ].join("\n"),
      }),
    ).toEqual([]);
  });

  it("reads a post's largest text in linear time", () => {
    const content = `/images/${"a".repeat(63)}`.repeat(700).slice(0, 50_000);
    const started = performance.now();
    expect(imageIdsUsedBy({ headerImage: null, content })).toEqual([]);
    expect(performance.now() - started).toBeLessThan(50);
  });
});

describe("migration 012", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it("references the stored images the posts already there use, and only those", async () => {
    const created = await createTestDatabase();
    const connection: Connection = connect(resolveDatabase(created.url, process.cwd()));
    cleanups.push(async () => {
      await connection.db.destroy();
      await created.drop();
    });
    const migrator = new Migrator({
      db: connection.db,
      provider: { getMigrations: () => Promise.resolve(migrations) },
      allowUnorderedMigrations: true,
    });
    const { error } = await migrator.migrateTo("010_site_settings");
    expect(error).toBeUndefined();

    const now = new Date().toISOString();
    for (const id of [A, B]) {
      await connection.db
        .insertInto("images")
        .values({
          id,
          source_format: "png",
          width: 320,
          height: 200,
          content_type: "image/png",
          byte_size: 3,
          bytes: Buffer.from([1, 2, 3]),
          created_at: now,
        })
        .execute();
    }
    const header = { ...postRow("with-header", now), header_image: `/images/${A}-320.webp` };
    // C was never stored (a URL typed by hand): not a reference.
    const inline = { ...postRow("inline", now), content: `![b](/images/${B}-320.webp) ![c](/images/${C}-320.webp)` };
    const plain = postRow("plain", now);
    await connection.db.insertInto("posts").values([header, inline, plain]).execute();

    expect(await migrateToLatest(connection.db)).toContain("012_image_references");
    const rows = await connection.db.selectFrom("image_references").selectAll().orderBy("image_id").execute();
    expect(rows).toEqual([
      { post_id: header.id, image_id: A },
      { post_id: inline.id, image_id: B },
    ]);
  });
});
