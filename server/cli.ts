import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import tar from "tar-stream";
import {
  AccountError,
  MIN_PASSWORD_LENGTH,
  upsertAdmin,
  clearSignInThrottle,
  init as initIdentity,
  getTotpKey,
  KEY_FILE_NAME,
  resetTwoFactor,
} from "~/server/identity/index.server";
import {
  BackupError,
  backupStorage,
  type BackupStorage,
  type StoredBackup,
  readBackupFile,
  restoreBackup,
  writeBackup,
  CopyError,
  copyDatabase,
} from "~/server/backup/index.server";
import { ConfigError, getConfig, resolveDatabase } from "~/server/platform/config.server";
import { connect, migrateToLatest } from "~/server/db/db.server";
import { closeConnection, getConnection, getDb, waitForSlowQueries } from "~/server/db/index.server";
import { startCommandClock } from "~/server/platform/clock.server";
import { closeMarkdownWorker, enableMarkdownWorker } from "~/server/posts/index.server";
import { importCommand } from "./cli-import";

const USAGE = `Usage:
  npm run admin -- set-password <email>   add an administrator, or reset the password of an existing one
                                          (also lifts a sign-in lock on that account)
  npm run admin -- reset-2fa <email>      turn two-factor sign-in off for an administrator who lost
                                          their phone and recovery codes (they turn it on again under Account)
  npm run admin -- list                   list administrators
  npm run admin -- copy-database --from <DATABASE_URL> --to <DATABASE_URL>
                                          copy a whole site (posts, images, administrators,
                                          sessions, messages) into a new, empty database,
                                          e.g. --from ./data/site.db --to postgres://host/db
  npm run admin -- backup <file>          write the whole site (posts, images, settings, administrators,
                                          messages; not sessions) to one file, a .tar readable by you alone
                                          (two-factor secrets in it are encrypted: docs/backup-format.md)
  npm run admin -- restore <file> [--replace]
                                          load a backup into DATABASE_URL (SQLite or PostgreSQL, whichever
                                          made it), in one transaction; a database that already holds a
                                          site is refused unless --replace (which empties it first)
  npm run admin -- backups                list the off-site backups in BACKUP_STORAGE_URL, newest first
  npm run admin -- restore --from-storage <key|latest> [--replace]
                                          download one of them (a key as the list shows it, or the newest)
                                          to a temporary file, then restore it as above
  npm run admin -- import <file> [--site-url <url>]
                                          import the posts of a WordPress (.xml) or Ghost (.json) export,
                                          their images, and redirects from their old addresses; --site-url
                                          is the old site's address, for a Ghost export's images

The password is asked for (twice) on a terminal, or read from the first line of standard input:
  printf '%s\\n' "$PASSWORD" | npm run admin -- set-password owner@example.com
Uses the same DATABASE_URL as the site.`;

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    const rl = readline.createInterface({ input: process.stdin });
    for await (const line of rl) {
      rl.close();
      return line;
    }
    return "";
  }
  const ask = (question: string) =>
    new Promise<string>((resolve) => {
      const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true });
      const write = (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput;
      (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) => {
        // Echo the prompt, hide what is typed.
        write.call(rl, s.startsWith(question) ? question : "");
      };
      rl.question(question, (answer) => {
        rl.close();
        process.stdout.write("\n");
        resolve(answer);
      });
    });
  const first = await ask(`Password (at least ${MIN_PASSWORD_LENGTH} characters): `);
  const second = await ask("Repeat the password: ");
  if (first !== second) throw new AccountError("The two passwords differ");
  return first;
}

async function run(args: string[]): Promise<number> {
  waitForSlowQueries();
  const [command, email] = args;
  if (command === "set-password" && email) {
    const db = getDb();
    await migrateToLatest(db);
    const outcome = await upsertAdmin(db, email, await readPassword());
    // The owner locked out by failed attempts (theirs or a guesser's) can sign in at once.
    initIdentity(getConnection());
    await clearSignInThrottle(email);
    console.log(
      outcome === "created"
        ? `Administrator ${email.toLowerCase()} created.`
        : `Password of ${email.toLowerCase()} reset; their existing sessions were signed out and sign-in attempts cleared.`,
    );
    return 0;
  }
  if (command === "reset-2fa" && email && args.length === 2) {
    const db = getDb();
    await migrateToLatest(db);
    // Its code throttle is cleared too: the identity domain's throttles are built first.
    initIdentity(getConnection());
    if (!(await resetTwoFactor(db, email)))
      throw new AccountError(`No administrator with the e-mail ${email.toLowerCase()}`);
    console.log(`Two-factor sign-in of ${email.toLowerCase()} turned off; they sign in with their password alone.`);
    return 0;
  }
  if (command === "list") {
    const db = getDb();
    await migrateToLatest(db);
    const admins = await db.selectFrom("admin_users").select(["email", "created_at"]).orderBy("email").execute();
    if (admins.length === 0) console.log("No administrators yet.");
    for (const admin of admins) console.log(`${admin.email}\t(added ${admin.created_at})`);
    return 0;
  }
  if (command === "copy-database") {
    const { values } = parseArgs({
      args: args.slice(1),
      options: { from: { type: "string" }, to: { type: "string" } },
    });
    if (!values.from || !values.to) {
      console.error(USAGE);
      return 2;
    }
    const source = resolveDatabase(values.from, process.cwd());
    if (source.kind === "sqlite" && !fs.existsSync(source.file)) {
      console.error(`No database file at ${source.file}`);
      return 1;
    }
    const from = connect(source, { queryTimeoutMs: 0 });
    const to = connect(resolveDatabase(values.to, process.cwd()), { queryTimeoutMs: 0 });
    try {
      // Both at this version's schema: the source as the site would migrate it at start.
      await migrateToLatest(from.db);
      await migrateToLatest(to.db);
      const counts = await copyDatabase(from, to);
      for (const [table, count] of Object.entries(counts)) console.log(`${table}: ${count} rows`);
      console.log("Copied. Point DATABASE_URL at the new database and restart the site.");
      await sayWhichKeyGoesAlong(to.db);
      return 0;
    } finally {
      await Promise.all([from.db.destroy(), to.db.destroy()]);
    }
  }
  if (command === "import") {
    const { values, positionals } = parseArgs({
      args: args.slice(1),
      options: { "site-url": { type: "string", default: "" } },
      allowPositionals: true,
    });
    if (positionals.length !== 1) {
      console.error(USAGE);
      return 2;
    }
    return importCommand(path.resolve(positionals[0]!), values["site-url"]);
  }
  if (command === "backups" && args.length === 1) return listStored();
  if (command === "backup" || command === "restore") {
    const { values, positionals } = parseArgs({
      args: args.slice(1),
      options: { replace: { type: "boolean", default: false }, "from-storage": { type: "boolean", default: false } },
      allowPositionals: true,
    });
    const [file] = positionals;
    if (!file || positionals.length > 1 || (command === "backup" && (values.replace || values["from-storage"]))) {
      console.error(USAGE);
      return 2;
    }
    if (values["from-storage"]) return restoreStored(file, values.replace);
    return command === "backup" ? backup(path.resolve(file)) : restore(path.resolve(file), values.replace);
  }
  console.error(USAGE);
  return 2;
}

/**
 * Two-factor secrets are copied as they are stored, encrypted (ADR 047): the
 * new site needs the key they were encrypted with, which stays outside
 * the database.
 */
async function sayWhichKeyGoesAlong(db: ReturnType<typeof getDb>): Promise<void> {
  const { n } = await db
    .selectFrom("admin_users")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("totp_secret", "is not", null)
    .executeTakeFirstOrThrow();
  if (Number(n) === 0) return;
  console.log(
    `${n} administrator(s) use two-factor sign-in, and their secrets were copied encrypted: give every process` +
      " of the new site the key they were encrypted with, as TOTP_ENCRYPTION_KEY (the old site's TOTP_ENCRYPTION_KEY," +
      ` or the one line of ${KEY_FILE_NAME} beside its SQLite database).`,
  );
}

/**
 * Written beside the file under a temporary name and renamed when whole:
 * FILE is never half a backup. Created with mode 0600 (never readable by
 * others, not even for a moment): it holds password hashes and the site's
 * messages.
 */
async function backup(file: string): Promise<number> {
  const connection = getConnection();
  await migrateToLatest(connection.db);
  const partial = `${file}.partial-${process.pid}`;
  const pack = tar.pack();
  try {
    const [counts] = await Promise.all([
      writeBackup(connection, pack, getTotpKey()?.key),
      pipeline(pack, fs.createWriteStream(partial, { flags: "wx", mode: 0o600 })),
    ]);
    fs.renameSync(partial, file);
    const size = fs.statSync(file).size;
    for (const [table, count] of Object.entries(counts.rows)) console.log(`${table}: ${count} rows`);
    console.log(`Backup written to ${file} (${(size / 1024 / 1024).toFixed(1)} MB).`);
    return 0;
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
}

/**
 * The file is checked whole before the database is touched; then loaded in
 * one transaction, each post's HTML rendered again in the renderer process
 * saves use (ADR 039, 047).
 */
async function restore(file: string, replace: boolean): Promise<number> {
  const checked = await readBackupFile(file);
  console.log(`${file}: a backup made ${checked.manifest.createdAt} on ${checked.manifest.source}; checksums match.`);
  const connection = getConnection();
  await migrateToLatest(connection.db);
  // Publications the restore queues again are judged by site time (ADR 077).
  await startCommandClock(connection.db);
  enableMarkdownWorker(fileURLToPath(new URL("./markdown-worker.js", import.meta.url)));
  const { counts, notices } = await restoreBackup(connection, file, { replace, totpKey: getTotpKey() });
  for (const [table, count] of Object.entries(counts.rows)) console.log(`${table}: ${count} rows`);
  for (const notice of notices) console.log(notice);
  console.log(
    replace
      ? "Restored: the database's earlier content was replaced, and everybody was signed out."
      : "Restored. Start the site (or restart it) on this DATABASE_URL.",
  );
  return 0;
}

/** The bucket of BACKUP_STORAGE_URL (ADR 076), or a BackupError saying it is not set. */
function storage(): BackupStorage {
  const found = backupStorage(getConfig());
  if (!found)
    throw new BackupError("Off-site backups are not configured: set BACKUP_STORAGE_URL (docs/configuration.md).");
  return found;
}

/** `backups`: the stored backups, newest first, one a line: key, size, when stored. */
async function listStored(): Promise<number> {
  const where = storage();
  const stored: StoredBackup[] = await where.list();
  for (const backup of stored)
    console.log(`${backup.key}  ${(backup.size / 1024 / 1024).toFixed(1)} MB  ${backup.lastModified.toISOString()}`);
  console.log(`${stored.length} backup(s) in ${where.where}.`);
  return 0;
}

/**
 * `restore --from-storage KEY|latest`: the object downloaded into a private
 * temporary folder (mode 0700, the file 0600), restored with every check a
 * file gets, and deleted either way.
 */
async function restoreStored(key: string, replace: boolean): Promise<number> {
  const where = storage();
  let chosen = key;
  if (key === "latest") {
    const [newest] = await where.list();
    if (!newest) throw new BackupError(`No backups in ${where.where}.`);
    chosen = newest.key;
  }
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "site-restore-"));
  try {
    const file = path.join(folder, path.basename(chosen));
    await where.download(chosen, file).catch((error: unknown) => {
      throw new BackupError(`Could not download ${chosen}: ${error instanceof Error ? error.message : String(error)}`);
    });
    console.log(`Downloaded ${chosen} (${(fs.statSync(file).size / 1024 / 1024).toFixed(1)} MB).`);
    return await restore(file, replace);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

// An unexpected error is thrown again: Node reports it with its stack and exits with 1.
void run(process.argv.slice(2))
  .catch((error: unknown) => {
    if (
      error instanceof AccountError ||
      error instanceof ConfigError ||
      error instanceof CopyError ||
      error instanceof BackupError
    ) {
      console.error(error.message);
      return 1;
    }
    throw error;
  })
  .then(async (code) => {
    await Promise.all([closeConnection(), closeMarkdownWorker()]);
    process.exit(code);
  });
