// The production path of docs/deploy.md, on this machine: nginx with the site
// file deploy/ships, app processes started as deploy/systemd's unit starts
// them, and a PostgreSQL cluster of the test's own (tests/integration/deploy.db.test.ts).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { renderNginxSite } from "../../deploy/render-nginx-site.mjs";
import { freePort } from "./ports";
import { startPrivatePostgres, type PrivatePostgres } from "../../scripts/lib/private-postgres.mjs";

export const ROOT = path.resolve(import.meta.dirname, "../..");
const UNIT_FILE = path.join(ROOT, "deploy/systemd/ojai-site@.service");
const SOCKET_FILE = path.join(ROOT, "deploy/systemd/ojai-site@.socket");

/** nginx's binary, or undefined when nginx is not installed (apt-get install nginx). */
export function findNginx(): string | undefined {
  for (const dir of [...(process.env.PATH ?? "").split(":"), "/usr/sbin", "/usr/local/sbin"]) {
    const candidate = path.join(dir, "nginx");
    if (dir && fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** KEY=value lines, as systemd's EnvironmentFile= reads them (comments and blank lines skipped). */
export function parseEnvironmentFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith("#")) continue;
    const eq = trimmed.indexOf("=");
    if (eq > 0) env[trimmed.slice(0, eq)] = trimmed.slice(eq + 1).replace(/^"(.*)"$/, "$1");
  }
  return env;
}

/**
 * The unit's Environment= assignments and ExecStart= command for one
 * instance (%i = the port). Only the forms the unit uses are understood:
 * unquoted KEY=value words, and a command of plain words.
 */
export function readUnit(instance: string): { environment: Record<string, string>; execStart: string[] } {
  const environment: Record<string, string> = {};
  let execStart: string[] | undefined;
  for (const line of fs.readFileSync(UNIT_FILE, "utf8").split("\n")) {
    const value = line.slice(line.indexOf("=") + 1).replaceAll("%i", instance);
    if (line.startsWith("Environment=")) {
      for (const word of value.split(/\s+/).filter(Boolean)) {
        const eq = word.indexOf("=");
        environment[word.slice(0, eq)] = word.slice(eq + 1);
      }
    } else if (line.startsWith("ExecStart=")) {
      execStart = value.split(/\s+/).filter(Boolean);
    }
  }
  if (!execStart) throw new Error(`${UNIT_FILE} has no ExecStart=`);
  return { environment, execStart };
}

export interface AppProcess {
  port: number;
  url: string;
  pid: number;
  logFile: string;
  /** SIGTERM, as systemctl stop sends it; answers once the process has exited, with its exit code. */
  stop(): Promise<number | null>;
  /** Any signal at once (SIGKILL: nothing of the shutdown runs); answers once the process has gone. */
  kill(signal: NodeJS.Signals): Promise<void>;
  running(): boolean;
}

/** What Node's cluster module uses to hold a socket its workers listen on: bound, never accepted on here. */
interface SocketHandle {
  fd: number;
  close(): void;
}
const internals = net as unknown as {
  _createServerHandle(address: string, port: number, addressType: number): SocketHandle | number;
};

/** The sockets systemd would hold (ojai-site@PORT.socket), by port: each outlives the processes given it. */
const sockets = new Map<number, SocketHandle>();

/** The socket unit's ListenStream= for one instance, as host and port. */
export function readSocketUnit(instance: string): { host: string; port: number } {
  const listen = /^ListenStream=(.+)$/m.exec(fs.readFileSync(SOCKET_FILE, "utf8"))?.[1]?.replaceAll("%i", instance);
  const match = /^([\d.]+):(\d+)$/.exec(listen ?? "");
  if (!match) throw new Error(`the socket unit's ListenStream= is not HOST:PORT: ${listen}`);
  return { host: match[1]!, port: Number(match[2]) };
}

/** The instance's socket, opened as systemd opens it when the socket unit starts. */
function socketFor(port: number): SocketHandle {
  let handle = sockets.get(port);
  if (!handle) {
    const unit = readSocketUnit(String(port));
    const made = internals._createServerHandle(unit.host, unit.port, 4);
    if (typeof made === "number") throw new Error(`could not bind ${unit.host}:${unit.port} (${made})`);
    sockets.set(port, (handle = made));
  }
  return handle;
}

/** As `systemctl stop ojai-site@PORT.socket`: connections to the port are refused from now on. */
export function closeSocket(port: number): void {
  sockets.get(port)?.close();
  sockets.delete(port);
}

/**
 * Starts one app process as systemd starts the unit's instance `port`: on the
 * instance's socket (held here across the instance's processes, as systemd
 * holds it, and passed as fd 3 with LISTEN_FDS and LISTEN_PID), with the
 * unit's Environment= (PORT among them), overridden by the environment
 * file's variables (`environment`, as /etc/ojai-site/env holds them); its ExecStart= command
 * with this machine's node in place of /usr/bin/node, from the checkout's
 * root (the unit's WorkingDirectory). Answers once /healthz says 200.
 */
export async function startAppProcess(
  port: number,
  environment: Record<string, string>,
  logDir: string,
): Promise<AppProcess> {
  const unit = readUnit(String(port));
  const [node, ...args] = unit.execStart;
  if (!node?.endsWith("/node"))
    throw new Error(`the unit's ExecStart= does not start node: ${unit.execStart.join(" ")}`);
  const socket = socketFor(port);
  const logFile = path.join(logDir, `app-${port}.log`);
  const log = fs.openSync(logFile, "a");
  // systemd's order: what EnvironmentFile= sets overrides Environment= (so the file must not set PORT).
  // LISTEN_PID is the process's own pid, known only once it runs: the shell sets it and becomes node.
  const child: ChildProcess = spawn(
    "/bin/sh",
    ["-c", 'export LISTEN_PID=$$; exec "$@"', "sh", process.execPath, ...args],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH, ...unit.environment, ...environment, LISTEN_FDS: "1" },
      stdio: ["ignore", log, log, socket.fd],
    },
  );
  fs.closeSync(log);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const running = () => child.exitCode === null && child.signalCode === null;
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (!running()) throw new Error(`app process on ${port} exited while starting:\n${tail(logFile)}`);
    try {
      // Refused until the port's first process listens; after that, a request waits on the socket for the process.
      if ((await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) })).status === 200) break;
    } catch {
      // not answering yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`app process on ${port} did not answer /healthz in 30 s:\n${tail(logFile)}`);
    }
    await sleep(50);
  }
  return {
    port,
    url,
    pid: child.pid!,
    logFile,
    running,
    async stop() {
      if (running()) child.kill("SIGTERM");
      // systemd's TimeoutStopSec=20 of the unit.
      const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    async kill(signal) {
      if (running()) child.kill(signal);
      await exited;
    },
  };
}

/** The last lines of a log file, for an error message. */
export function tail(file: string, lines = 15): string {
  try {
    return fs.readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "";
  }
}

/**
 * The last `limit` distinct warnings and errors in an app process's log (its
 * message and its error's), for a failure's message: what the process said
 * about it. The last, since the log runs on across the file's tests.
 */
export function warningsIn(file: string, limit = 8): string[] {
  let text = "";
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const said = new Set<string>();
  for (const line of text.split("\n").reverse()) {
    if (said.size >= limit) break;
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
      if ((entry.level ?? 0) >= 40) said.add(`${entry.msg}${entry.err?.message ? `: ${entry.err.message}` : ""}`);
    } catch {
      // Not a log line (a stack trace Node printed): tail() shows those.
    }
  }
  return [...said].reverse();
}

/** One line of the test nginx's access log (the `deploy` log_format below). */
interface NginxLogLine {
  /** When the answer ended, ms since the epoch. */
  end: number;
  /** When nginx read the request's first bytes, ms since the epoch. */
  start: number;
  requestId: string;
  status: number;
  method: string;
  /** Each app process nginx tried, in order (host:port). */
  upstreams: string[];
  upstreamStatuses: string[];
}

export interface Nginx {
  /** https://localhost:PORT: the site's public origin in this test. */
  siteUrl: string;
  httpsPort: number;
  httpPort: number;
  /** The self-signed certificate, for clients to trust. */
  ca: Buffer;
  /** The site file rendered from deploy/'s template. */
  siteFile: string;
  /** The test's timing log (the `deploy` format below), parsed. */
  accessLog(): NginxLogLine[];
  /** The site's own access log, in the format deploy/'s file defines: its lines as written. */
  siteLog(): string[];
  errorLog(): string;
  stop(): Promise<void>;
}

/**
 * Starts nginx in front of `apps` (host:port each) with deploy/'s site file,
 * rendered for this test: its own ports, a self-signed certificate for
 * localhost and 127.0.0.1, folders under `dir`, the site's access log there,
 * and beside it a timing log of the test's own format that names the app
 * process each request went to (and no URI). The nginx.conf around it is
 * this test's own (Debian's /etc/nginx/nginx.conf plays that part on a
 * server): where nginx keeps its files, and that format.
 * `rateLimitExempt`: addresses nginx never rate-limits (a load generator
 * standing in for many visitors). `extraHttp`: the test's own lines in
 * nginx's http {} block, after the site (a probe server on its zones).
 */
export async function startNginx(
  nginx: string,
  apps: string[],
  dir: string,
  { rateLimitExempt = [], extraHttp = "" }: { rateLimitExempt?: string[]; extraHttp?: string } = {},
): Promise<Nginx> {
  const [httpsPort, httpPort] = [await freePort(), await freePort()];
  const certificate = path.join(dir, "cert.pem");
  const certificateKey = path.join(dir, "key.pem");
  const made = spawnSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "2",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
      "-keyout",
      certificateKey,
      "-out",
      certificate,
    ],
    { encoding: "utf8" },
  );
  if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
  const siteUrl = `https://localhost:${httpsPort}`;
  // nginx's workers run as nobody when nginx is started as root: the folders they write are theirs to write.
  const folders = ["cache", "acme", "body", "proxy", "fastcgi", "uwsgi", "scgi"].map((name) => path.join(dir, name));
  for (const folder of folders) {
    fs.mkdirSync(folder, { recursive: true });
    fs.chmodSync(folder, 0o777);
  }
  fs.chmodSync(dir, 0o755);
  const accessLogFile = path.join(dir, "access.log");
  const siteLogFile = path.join(dir, "site-access.log");
  const errorLogFile = path.join(dir, "error.log");
  const siteFile = renderNginxSite({
    siteUrl,
    apps,
    certificate,
    certificateKey,
    httpPort,
    listenAddress: "127.0.0.1",
    cacheDir: path.join(dir, "cache"),
    acmeRoot: path.join(dir, "acme"),
    accessLogs: [{ file: siteLogFile }, { file: accessLogFile, format: "deploy" }],
    rateLimitExempt,
  });
  fs.writeFileSync(path.join(dir, "site.conf"), siteFile);
  const mimeTypes = fs.existsSync("/etc/nginx/mime.types") ? "include /etc/nginx/mime.types;" : "";
  fs.writeFileSync(
    path.join(dir, "nginx.conf"),
    `daemon off;
worker_processes 2;
pid ${dir}/nginx.pid;
error_log ${errorLogFile} warn;
events { worker_connections 1024; }
http {
  ${mimeTypes}
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  log_format deploy '$msec $request_time "$http_x_request_id" $status $request_method "$upstream_addr" "$upstream_status"';
  include ${dir}/site.conf;
  ${extraHttp}
}
`,
  );
  const child = spawn(nginx, ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-e", errorLogFile], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // nginx writes its pid file once it has bound every port it listens on (and exits if it
  // cannot): a port that merely answers could be another process's, taken since it was free.
  const pidFile = path.join(dir, "nginx.pid");
  const started = () => fs.existsSync(pidFile) && fs.readFileSync(pidFile, "utf8").trim() === String(child.pid);
  const deadline = Date.now() + 10_000;
  while (!started() || !(await listening(httpsPort))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`nginx did not start: ${stderr}\n${tail(errorLogFile)}`);
    }
    await sleep(50);
  }
  return {
    siteUrl,
    httpsPort,
    httpPort,
    ca: fs.readFileSync(certificate),
    siteFile,
    accessLog: () => parseAccessLog(fs.existsSync(accessLogFile) ? fs.readFileSync(accessLogFile, "utf8") : ""),
    siteLog: () => (fs.existsSync(siteLogFile) ? fs.readFileSync(siteLogFile, "utf8").split("\n").filter(Boolean) : []),
    errorLog: () => (fs.existsSync(errorLogFile) ? fs.readFileSync(errorLogFile, "utf8") : ""),
    async stop() {
      // SIGQUIT: nginx's graceful stop.
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGQUIT");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

// 1732000000.123 0.004 "load-12" 200 GET "127.0.0.1:3001, 127.0.0.1:3002" "502, 200"
const LOG_LINE = /^(\d+\.\d+) (\d+\.\d+) "([^"]*)" (\d+) (\S+) "([^"]*)" "([^"]*)"$/;

function parseAccessLog(text: string): NginxLogLine[] {
  const lines: NginxLogLine[] = [];
  for (const line of text.split("\n")) {
    const match = LOG_LINE.exec(line);
    if (!match) continue;
    const end = Number(match[1]) * 1000;
    // "a, b" for the processes tried in turn ("a : b" across internal redirects, which this site has none of).
    const list = (value: string) =>
      value === "-"
        ? []
        : value
            .split(/[,:] /)
            .map((item) => item.trim())
            .filter(Boolean);
    lines.push({
      end,
      start: end - Number(match[2]) * 1000,
      requestId: match[3]!,
      status: Number(match[4]),
      method: match[5]!,
      upstreams: list(match[6]!),
      upstreamStatuses: list(match[7]!),
    });
  }
  return lines;
}

/** A PostgreSQL cluster of the test's own (scripts/lib/private-postgres.mjs), which the test may restart. */
export type PostgresCluster = PrivatePostgres;

/** Starts a private cluster; it goes when the test process ends, however it ends. */
export function startPostgresCluster(): Promise<PostgresCluster> {
  return startPrivatePostgres({ reapAfter: process.pid });
}
