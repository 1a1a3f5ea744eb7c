import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { connect, migrateToLatest, type Connection } from "./db.server";

/**
 * The SQLite file itself: what a copy of it holds after a delete, and who
 * may read it. SQLite only, whatever TEST_DATABASE says.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ojai-sqlite-file-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const SALT = "f00dfeedc0ffee5a17-distinctive-salt-0123456789abcdef01234567";

const holds = (file: string, text: string) => fs.existsSync(file) && fs.readFileSync(file).includes(text);

async function siteDatabase(name: string): Promise<{ connection: Connection & { kind: "sqlite" }; file: string }> {
  const file = path.join(dir, name, "site.db");
  const connection = connect({ kind: "sqlite", file });
  if (connection.kind !== "sqlite") throw new Error("not SQLite");
  await migrateToLatest(connection.db);
  return { connection, file };
}

describe("a deleted row in the SQLite file", () => {
  /** The analytics' salt of a day stored, checkpointed, then deleted and checkpointed, as SQLite's own checkpoints do. */
  async function storeAndDelete({ connection }: { connection: Connection & { kind: "sqlite" } }) {
    const { db, sqlite } = connection;
    await db.insertInto("analytics_salts").values({ day: "2026-01-01", salt: SALT }).execute();
    sqlite.pragma("wal_checkpoint(PASSIVE)");
    await db.deleteFrom("analytics_salts").where("day", "=", "2026-01-01").execute();
    sqlite.pragma("wal_checkpoint(PASSIVE)");
  }

  it("is gone from the database file and its -wal once the delete is checkpointed (secure_delete)", async () => {
    const site = await siteDatabase("secure");
    expect(site.connection.sqlite.pragma("secure_delete", { simple: true })).toBe(1);
    await storeAndDelete(site);
    expect(holds(site.file, SALT)).toBe(false);
    expect(holds(`${site.file}-wal`, SALT)).toBe(false);
    await site.connection.db.destroy();
  });

  it("is gone too when it never reached the file before its delete, after the next write", async () => {
    const site = await siteDatabase("unwritten");
    const { db, sqlite } = site.connection;
    await db.insertInto("analytics_salts").values({ day: "2026-01-02", salt: SALT }).execute();
    await db.deleteFrom("analytics_salts").where("day", "=", "2026-01-02").execute();
    sqlite.pragma("wal_checkpoint(PASSIVE)");
    expect(holds(site.file, SALT)).toBe(false);
    // The -wal still has the insert's frame until a commit starts it again from its beginning.
    await db.insertInto("analytics_salts").values({ day: "2026-01-03", salt: "another" }).execute();
    expect(holds(`${site.file}-wal`, SALT)).toBe(false);
    await site.connection.db.destroy();
  });

  it("stays readable in both files without these settings (what the test above would catch)", async () => {
    const site = await siteDatabase("loose");
    site.connection.sqlite.pragma("secure_delete = OFF");
    site.connection.sqlite.pragma("journal_size_limit = -1");
    await storeAndDelete(site);
    expect(holds(site.file, SALT)).toBe(true);
    expect(holds(`${site.file}-wal`, SALT)).toBe(true);
    await site.connection.db.destroy();
  });
});

/** Opens the database in a process of its own under `umask`, writes, and answers the modes it sees while open. */
function modesUnderUmask(umask: string, file: string): Promise<Record<string, string>> {
  const script = `
    import fs from "node:fs";
    import path from "node:path";
    import { connect } from ${JSON.stringify(path.join(import.meta.dirname, "db.server.ts"))};
    const file = process.argv[1];
    const connection = connect({ kind: "sqlite", file });
    connection.sqlite.exec("create table t (x text)");
    connection.sqlite.prepare("insert into t values ('x')").run();
    const mode = (f) => (fs.statSync(f).mode & 0o777).toString(8);
    const modes = { outer: mode(path.dirname(path.dirname(file))), folder: mode(path.dirname(file)), file: mode(file), wal: mode(file + "-wal"), shm: mode(file + "-shm") };
    process.stdout.write(JSON.stringify(modes));
    connection.sqlite.close();`;
  return new Promise((resolve, reject) => {
    const child = spawn(
      "sh",
      [
        "-c",
        `umask ${umask}; exec "$0" "$@"`,
        process.execPath,
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        script,
        file,
      ],
      { cwd: path.resolve(import.meta.dirname, "../../.."), env: { PATH: process.env.PATH, LOG_LEVEL: "silent" } },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`exit ${code}: ${err}`))));
  });
}

describe("the SQLite file's mode", () => {
  for (const umask of ["000", "022"]) {
    it(`is 0600, its -wal and -shm too, in new folders of 0700, under umask ${umask}`, async () => {
      const file = path.join(dir, `umask-${umask}`, "data", "site.db");
      expect(await modesUnderUmask(umask, file)).toEqual({
        outer: "700",
        folder: "700",
        file: "600",
        wal: "600",
        shm: "600",
      });
    }, 30_000);
  }

  it("a file an older version left readable by others is tightened at start, with its -wal and -shm", () => {
    const file = path.join(dir, "older", "site.db");
    fs.mkdirSync(path.dirname(file), { mode: 0o755 });
    // Another process has it open, so its -wal and -shm exist.
    const older = new SqliteDatabase(file);
    older.pragma("journal_mode = WAL");
    older.exec("create table t (x text); insert into t values ('x')");
    for (const each of [file, `${file}-wal`, `${file}-shm`]) fs.chmodSync(each, 0o644);
    const connection = connect({ kind: "sqlite", file });
    for (const each of [file, `${file}-wal`, `${file}-shm`]) {
      expect((fs.statSync(each).mode & 0o777).toString(8), each).toBe("600");
    }
    // A folder that was there is left as it was (it may be shared).
    expect((fs.statSync(path.dirname(file)).mode & 0o777).toString(8)).toBe("755");
    if (connection.kind === "sqlite") connection.sqlite.close();
    older.close();
  });
});
