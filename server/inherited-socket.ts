// The listening socket systemd hands over (socket activation, ADR 093).
// systemd's ojai-site@PORT.socket owns it, so it outlives every process: a
// process that exits (drained, or killed) takes no connection with it, and
// those that arrive meanwhile wait in the kernel's queue for the next one. A
// socket of the process's own, closed at SIGTERM, reset every connection the
// kernel had queued and the process had not yet accepted; nginx does not
// resend a POST it has sent, so each was a lost write (the visitor got 502).

/** The first file descriptor systemd passes (SD_LISTEN_FDS_START). */
const FIRST_FD = 3;

export class InheritedSocketError extends Error {}

/**
 * The descriptor of the one listening socket systemd passed to this process,
 * or undefined when it passed none (`npm start`, a unit without its socket).
 * As sd_listen_fds(3) says: the variables count only when LISTEN_PID names
 * this process, and they are removed, so no process this one starts takes
 * them for its own.
 */
export function takeInheritedSocket(env: NodeJS.ProcessEnv = process.env, pid = process.pid): number | undefined {
  const count = env.LISTEN_FDS;
  const owner = env.LISTEN_PID;
  delete env.LISTEN_FDS;
  delete env.LISTEN_PID;
  delete env.LISTEN_FDNAMES;
  if (count === undefined || owner !== String(pid)) return undefined;
  if (count !== "1")
    throw new InheritedSocketError(
      `systemd passed ${JSON.stringify(count)} sockets (LISTEN_FDS); the site listens on exactly one: give its .socket unit one ListenStream=`,
    );
  return FIRST_FD;
}
