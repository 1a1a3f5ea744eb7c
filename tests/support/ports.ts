import net from "node:net";

/**
 * Ports a test holds for a server that is not listening yet (a mail server
 * started later, nginx and the app processes behind it). They are below
 * Linux's ephemeral range (32768-60999 unless net.ipv4.ip_local_port_range
 * says otherwise), which the kernel hands to every outgoing connection and
 * to listen(0): a port from there, let go, was soon some connection's, and
 * the server started on it later failed with EADDRINUSE. Each test process
 * (Vitest's pool id, Playwright's parallel index) takes ports from a slice
 * of its own, in turn, so two processes never hold the same one: a port
 * picked at random from one shared range could be picked by two.
 */
const BASE = 20_000;
const SLICE = 600;
const SLICES = 20;
let next = 0;

function slice(): number {
  const id = Number(process.env.VITEST_POOL_ID ?? process.env.TEST_PARALLEL_INDEX ?? process.pid);
  return (Number.isFinite(id) ? id : process.pid) % SLICES;
}

/** Whether nothing listens on `port` now. */
function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/** A port of this process's slice that no one listens on, for a server started later. */
export async function freePort(): Promise<number> {
  const base = BASE + slice() * SLICE;
  for (let tries = 0; tries < SLICE; tries++) {
    const port = base + (next++ % SLICE);
    if (await isFree(port)) return port;
  }
  throw new Error(`no free port in ${base}-${base + SLICE - 1}`);
}
