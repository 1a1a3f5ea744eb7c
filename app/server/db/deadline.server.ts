/**
 * Every wait on PostgreSQL with a deadline (a query, the probe, the LISTEN
 * connection's start and heartbeat; not the pool's connect, ADR 095)
 * decides it here, after the event loop next reads its sockets, not when
 * the timer fires: a timer that came due while the process did not run
 * (the machine paused it, a long collection, a loop busy with a burst of
 * renders) fires before the loop reads the answer that came meanwhile, and
 * a pause of this process would count as an outage of the database. A
 * timer's callback runs before the loop's poll for input, an immediate's
 * after it.
 */

/**
 * `pending`, or a rejection with `message` once `ms` have passed without
 * its answer (`ms` ≤ 0: no deadline). A late outcome of `pending` is
 * ignored, and its rejection handled.
 */
export function answeredWithin<T>(pending: Promise<T>, ms: number, message: string): Promise<T> {
  if (ms <= 0) return pending;
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const settle = () => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      return true;
    };
    const timer = setTimeout(() => setImmediate(() => settle() && reject(new Error(message))), ms);
    pending.then(
      (value) => settle() && resolve(value),
      (error: unknown) => settle() && reject(error as Error),
    );
  });
}
