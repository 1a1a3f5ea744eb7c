import net from "node:net";
import { SMTPServer } from "smtp-server";

interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface TestSmtpServer {
  port: number;
  url: string;
  mails: ReceivedMail[];
  stop(): Promise<void>;
}

/**
 * Ports a test may hold for a server that is not there yet: below Linux's
 * ephemeral range (32768-60999 unless net.ipv4.ip_local_port_range says
 * otherwise), which the kernel hands to every outgoing connection and to
 * listen(0). A port taken from that range and let go was
 * soon given to some connection of the server under test, and the mail
 * server then started later failed with EADDRINUSE. Each test process
 * (Vitest's pool id, Playwright's parallel index) has a slice of its own,
 * so two processes never pick the same port.
 */
const RESERVED_BASE = 28_000;
const SLICE = 200;
const SLICES = 20;
let next = 0;

function slice(): number {
  const id = Number(process.env.VITEST_POOL_ID ?? process.env.TEST_PARALLEL_INDEX ?? process.pid);
  return (Number.isFinite(id) ? id : process.pid) % SLICES;
}

/** Whether nothing listens on `port` now (a port in this process's slice). */
function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/** A port no one listens on and no connection will be given, for a mail server that is not there (yet). */
export async function freePort(): Promise<number> {
  const base = RESERVED_BASE + slice() * SLICE;
  for (let tries = 0; tries < SLICE; tries++) {
    const port = base + (next++ % SLICE);
    if (await isFree(port)) return port;
  }
  throw new Error(`no free port in ${base}-${base + SLICE - 1}`);
}

/** A real SMTP server (smtp-server) on loopback that keeps every mail it receives. */
export async function startSmtpServer(port = 0): Promise<TestSmtpServer> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const actualPort = (server.server.address() as net.AddressInfo).port;
  return {
    port: actualPort,
    url: `smtp://127.0.0.1:${actualPort}`,
    mails,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Decodes a quoted-printable mail body well enough to search it for plain text. */
export function mailText(raw: string): string {
  return raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
