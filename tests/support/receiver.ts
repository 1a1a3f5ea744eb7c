import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A webhook receiver on loopback for the tests of outbound deliveries (the
 * site must be started with OUTBOUND_ALLOW_PRIVATE=true to reach it). It
 * keeps each request whole, so a test can check the signature over the
 * exact bytes, and answers with the status the test chooses: the next of
 * `answers`, then `status`. "silent" never answers, as a receiver that hangs.
 */

type Answer = number | "silent";

interface Delivery {
  headers: http.IncomingHttpHeaders;
  body: string;
  /** When the request arrived, by the receiver's clock. */
  at: number;
}

export interface Receiver {
  /** `http://127.0.0.1:<port>/hooks`, where the site is to deliver. */
  url: string;
  port: number;
  /** The requests so far, in the order they arrived; a test may empty it. */
  received: Delivery[];
  /** The statuses of the next requests, one each, in order. */
  answers: Answer[];
  /** The status once `answers` is empty. */
  status: Answer;
  /** The bodies received so far, as the site's events. */
  events: () => Array<{ type: string; data: Record<string, unknown> }>;
  close: () => Promise<void>;
}

/** Starts a receiver; `clock` stamps each request as it arrives (Date.now unless given). */
export async function startReceiver(clock: () => number = Date.now): Promise<Receiver> {
  const server = http.createServer((request, response) => {
    const at = clock();
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      receiver.received.push({ headers: request.headers, body, at });
      const answer = receiver.answers.shift() ?? receiver.status;
      if (answer !== "silent") response.writeHead(answer).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received: [],
    answers: [],
    status: 200,
    events: () => receiver.received.map((r) => JSON.parse(r.body) as ReturnType<Receiver["events"]>[number]),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return receiver;
}
