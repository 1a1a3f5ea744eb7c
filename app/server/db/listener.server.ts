import pg from "pg";
import { getLogger } from "../platform/logger.server";
import { answeredWithin } from "./deadline.server";
import { destroyClient } from "./reachability.server";

/**
 * This process's one LISTEN connection to PostgreSQL (ADR 075): the content
 * version's announcements (db/content-version.server.ts) and the jobs'
 * wake-ups (ADR 067) arrive on it. A pooled connection would be handed to
 * queries, so it has its own. It reconnects by itself, and tells each
 * subscriber when it is (again) listening, so that one can read what it may
 * have missed, and when it is not, so that one stops trusting what it heard.
 *
 * A connection that went silent (a network cut leaves the socket open) is
 * found by a heartbeat: a query every few seconds that must answer in time.
 * Its deadline, and the connection's, are decided after the loop reads its
 * sockets (deadline.server.ts): a paused process does not reconnect for it.
 */

const RECONNECT_MS = 1000;

interface ListenerTimings {
  /** How often the heartbeat asks (ms). */
  heartbeatMs: number;
  /** How long a new connection and each heartbeat may take to answer (ms). */
  answerWithinMs: number;
}

const TIMINGS: ListenerTimings = { heartbeatMs: 5000, answerWithinMs: 3000 };

interface Subscriber {
  /** A NOTIFY on the channel, with its payload. */
  notify(payload: string): void;
  /** Listening (again): `client` may be queried once, for what was missed. */
  listening?(client: Pick<pg.Client, "query">): Promise<void> | void;
  /** The connection is lost; nothing will be heard until `listening` again. */
  lost?(): void;
}

export interface Listener {
  /** Listens on `channel` (a fixed identifier of ours) from now on; answers the function that stops. */
  subscribe(channel: string, subscriber: Subscriber): () => void;
  close(): Promise<void>;
}

export function createListener(url: string, { heartbeatMs, answerWithinMs } = TIMINGS): Listener {
  const log = getLogger();
  const channels = new Map<string, Set<Subscriber>>();
  let client: pg.Client | undefined;
  let connected = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  const each = (run: (subscriber: Subscriber) => unknown) => {
    for (const subscribers of channels.values()) for (const subscriber of subscribers) void run(subscriber);
  };

  const drop = (current: pg.Client, error: unknown) => {
    if (client !== current) return;
    const wasConnected = connected;
    client = undefined;
    connected = false;
    clearInterval(heartbeat);
    current.removeAllListeners("notification");
    // Destroyed, not ended politely: a connection that went silent never answers the goodbye.
    destroyClient(current);
    if (wasConnected) {
      log.warn({ err: error }, "the LISTEN connection was lost; reconnecting");
      each((subscriber) => subscriber.lost?.());
    }
    if (!closed) retry = setTimeout(connect, RECONNECT_MS);
    retry?.unref();
  };

  const beat = (current: pg.Client) => {
    heartbeat = setInterval(() => {
      void answeredWithin(current.query("select 1"), answerWithinMs, "no answer to the heartbeat").catch(
        (error: unknown) => drop(current, error),
      );
    }, heartbeatMs);
    heartbeat.unref();
  };

  const connect = () => {
    if (closed) return;
    // No pg connect time-out: its timer is decided before the poll; answeredWithin's replaces it.
    const current = new pg.Client({ connectionString: url, keepAlive: true });
    client = current;
    current.on("error", (error) => drop(current, error));
    current.on("end", () => drop(current, new Error("connection ended")));
    current.on("notification", ({ channel, payload }) => {
      for (const subscriber of channels.get(channel) ?? []) subscriber.notify(payload ?? "");
    });
    void (async () => {
      await answeredWithin(current.connect(), answerWithinMs, "the LISTEN connection was not made in time");
      for (const channel of channels.keys()) {
        await answeredWithin(current.query(`LISTEN ${channel}`), answerWithinMs, "LISTEN had no answer in time");
      }
      if (client !== current) return;
      connected = true;
      beat(current);
      for (const subscribers of channels.values())
        for (const subscriber of subscribers) await subscriber.listening?.(current);
    })().catch((error: unknown) => drop(current, error));
  };
  connect();

  return {
    subscribe(channel, subscriber) {
      let subscribers = channels.get(channel);
      const isNew = !subscribers;
      if (!subscribers) channels.set(channel, (subscribers = new Set()));
      subscribers.add(subscriber);
      const current = client;
      if (current && connected) {
        // Heard from once LISTEN holds, then asked what it missed.
        void (isNew ? current.query(`LISTEN ${channel}`) : Promise.resolve())
          .then(() => subscriber.listening?.(current))
          .catch((error: unknown) => drop(current, error));
      }
      return () => void subscribers.delete(subscriber);
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(heartbeat);
      const current = client;
      client = undefined;
      connected = false;
      if (!current) return;
      // Politely, within the deadline: a connection still being made, or cut off, would never close.
      await answeredWithin(current.end(), answerWithinMs, "the LISTEN connection did not close in time").catch(() =>
        destroyClient(current),
      );
    },
  };
}
