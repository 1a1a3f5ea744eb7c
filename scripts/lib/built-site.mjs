// Starts the built site (build/server/index.js) as `npm start` would, on a
// database and environment of the caller's choosing, for the measuring
// scripts (bench, lighthouse, soak). Waits until /healthz answers.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "../..");

/**
 * The environment and Node flags of `npm start` (`VAR=value ... node --flag ...
 * build/server/index.js`), so the site is measured as it runs in production.
 */
function startCommand() {
  const start = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).scripts.start;
  const words = start.split(" ");
  const node = words.indexOf("node");
  if (node < 0 || words.at(-1) !== "build/server/index.js")
    throw new Error(`npm start is not a node command: ${start}`);
  const env = Object.fromEntries(words.slice(0, node).map((word) => word.split("=")));
  return { env, flags: words.slice(node + 1, -1) };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export function assertBuilt(command) {
  if (!fs.existsSync(path.join(root, "build/server/index.js"))) {
    console.error(`No build: run npm run build first (${command} does).`);
    process.exit(1);
  }
}

/** A process's resident memory in bytes (VmRSS), or its high-water mark (VmHWM); 0 once it is gone. */
export function memoryOf(pid, field = "VmRSS") {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const line = status.split("\n").find((l) => l.startsWith(`${field}:`));
    return line ? Number.parseInt(line.slice(field.length + 1).trim(), 10) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The resident memory of `pid`'s child processes together, in bytes: the markdown renderer (ADR 039). */
export function childrenMemoryOf(pid) {
  try {
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
    return children.reduce((sum, child) => sum + memoryOf(child), 0);
  } catch {
    return 0;
  }
}

/** The CPU time a process has used so far (user + system), in seconds; 0 once it is gone. */
export function cpuSecondsOf(pid) {
  try {
    // Fields 14 and 15 of /proc/PID/stat, after the command name in parentheses.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}
/** Linux's USER_HZ, the unit of /proc's CPU times: 100 on every common build. */
const CLOCK_TICKS = 100;

/**
 * @param {Record<string, string>} env  added to a production environment (DATABASE_URL at least)
 * @param {string[]} [nodeFlags]  more Node flags after npm start's (`--cpu-prof`, say)
 * @returns {Promise<{ url: string, pid: number, logFile: string,
 *   exited: Promise<{ code: number | null, signal: string | null }>, stop(): Promise<void> }>}
 */
export async function startBuiltSite(env, nodeFlags = []) {
  const port = await freePort();
  const logFile = path.join(os.tmpdir(), `ojai-site-${port}.log`);
  const log = fs.openSync(logFile, "w");
  const start = startCommand();
  const child = spawn(process.execPath, [...start.flags, ...nodeFlags, path.join(root, "build/server/index.js")], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      ...start.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      SITE_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", log, log],
  });
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the site exited early; see ${logFile}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 300) throw new Error("the site did not start in 30 s");
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pid: child.pid,
    logFile,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
      fs.closeSync(log);
      fs.rmSync(logFile, { force: true });
    },
  };
}
