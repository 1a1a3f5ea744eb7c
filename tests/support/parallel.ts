import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";

export interface HeldPost {
  /** Base URL of the server this one goes to. */
  url: string;
  path: string;
  /** JSON, or a string sent as it is (then give its Content-Type in `headers`). */
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * Sends POSTs (JSON, or forms) so that the server handles them truly at the same time:
 * every request's headers and the first half of its (chunked) body go out
 * first, so each route starts and waits for the rest of its body; after
 * `holdMs` every body is finished at once. A check that a route makes before
 * reading its body (a throttle looked up but not yet counted) is thus made by
 * all of them before any of them goes on. Correct code answers the same
 * whatever the timing; `holdMs` only makes a race in wrong code near certain.
 */
export async function postAllAtOnce(
  posts: HeldPost[],
  holdMs = 300,
): Promise<Array<{ status: number; text: string; headers: http.IncomingHttpHeaders }>> {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const finishers: Array<() => void> = [];
  const answers = posts.map(
    ({ url, path, body, headers = {} }) =>
      new Promise<{ status: number; text: string; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
        const text = typeof body === "string" ? body : JSON.stringify(body);
        const half = Math.floor(text.length / 2);
        const request = http.request(
          new URL(path, url),
          { method: "POST", agent, headers: { "Content-Type": "application/json", ...headers } },
          (response) => {
            let received = "";
            response.setEncoding("utf8");
            response.on("data", (chunk: string) => (received += chunk));
            response.on("end", () =>
              resolve({ status: response.statusCode ?? 0, text: received, headers: response.headers }),
            );
            response.on("error", reject);
          },
        );
        request.on("error", reject);
        request.write(text.slice(0, half));
        finishers.push(() => request.end(text.slice(half)));
      }),
  );
  await sleep(holdMs);
  for (const finish of finishers) finish();
  try {
    return await Promise.all(answers);
  } finally {
    agent.destroy();
  }
}
