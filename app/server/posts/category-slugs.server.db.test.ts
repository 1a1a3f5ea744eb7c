import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Migrator } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase, TEST_BACKEND } from "../../../tests/support/backend";
import { postRow } from "../../../tests/support/post-row";
import { fillCategorySlugs } from "./category-slugs.server";
import { connect, migrateToLatest, type Connection } from "../db/db.server";
import { migrations } from "../db/migrations.server";

/**
 * Migration 016 and fillCategorySlugs on a real database of the backend
 * under test: posts from before the column get their slug, and rows written
 * without it (a restore, a copy, hand-written SQL) are set right in batches.
 */

let connection: Connection;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  if (TEST_BACKEND === "postgres") {
    const created = await createPostgresDatabase();
    connection = connect({ kind: "postgres", url: created.url });
    cleanup = created.drop;
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ojai-categories-"));
    connection = connect({ kind: "sqlite", file: path.join(dir, "test.db") });
    cleanup = () => Promise.resolve(fs.rmSync(dir, { recursive: true, force: true }));
  }
  const migrator = new Migrator({
    db: connection.db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    allowUnorderedMigrations: true,
  });
  const { error } = await migrator.migrateTo("015_post_seo");
  if (error) throw error instanceof Error ? error : new Error("migration to 015 failed", { cause: error });
});
afterAll(async () => {
  await connection?.db.destroy();
  await cleanup?.();
});

const slugs = async () =>
  Object.fromEntries(
    (await connection.db.selectFrom("posts").select(["slug", "category_slug"]).execute()).map((r) => [
      r.slug,
      r.category_slug,
    ]),
  );

describe("category slugs", () => {
  it("are filled by migration 016 for the posts already there", async () => {
    const date = "2026-01-01T00:00:00.000Z";
    const rows = [
      { ...postRow("a", date), category: "Web Design" },
      { ...postRow("b", date), category: "web  design!" },
      { ...postRow("c", date), category: "" },
      { ...postRow("d", date), category: "!!!" },
      { ...postRow("e", date), category: "Cloud & Ops" },
    ];
    await connection.db.insertInto("posts").values(rows).execute();
    await migrateToLatest(connection.db);
    expect(await slugs()).toEqual({ a: "web-design", b: "web-design", c: "", d: "", e: "cloud-ops" });
  });

  it("are set right, in batches, for rows written without them", async () => {
    const date = "2026-01-02T00:00:00.000Z";
    const rows = Array.from({ length: 1_203 }, (_, i) => ({
      ...postRow(`bulk-${i}`, date),
      category: `Topic ${i % 7}`,
    }));
    for (let i = 0; i < rows.length; i += 200) {
      await connection.db
        .insertInto("posts")
        .values(rows.slice(i, i + 200))
        .execute();
    }
    await connection.db.updateTable("posts").set({ category_slug: "stale" }).where("slug", "=", "a").execute();
    await connection.db.transaction().execute((trx) => fillCategorySlugs(trx));
    const all = await slugs();
    expect(all.a).toBe("web-design");
    for (let i = 0; i < rows.length; i++) expect(all[`bulk-${i}`]).toBe(`topic-${i % 7}`);
  });
});
