import fs from "node:fs";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, startServer, type TestServer } from "../support/server";
import { NOT_FOUND_LIMITS } from "~/server/redirects/index.server";

/**
 * The not-found log cannot be flooded (issue 31, ADR 054): 50,000 unique
 * paths that each answer 404, sent 32 at a time, leave the table at its
 * bound, keep the most-asked path (the least hit go first), and the server's
 * resident memory under the 200 MB budget (ADR 028). How fast such hits are
 * answered is measured by `npm run bench`, not here.
 */

const FLOOD = 50_000;
const CONCURRENCY = 32;
const BUDGET_KB = 200 * 1024;

let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  server = await startServer();
  admin = new ApiClient(server.url);
  await admin.signIn();
});
afterAll(() => server?.stop());

/** The server's peak resident memory so far (VmHWM), in kB. */
const peakRssKb = () => {
  const status = fs.readFileSync(`/proc/${server.pid}/status`, "utf8").split("\n");
  return Number(status.find((line) => line.startsWith("VmHWM:"))!.replace(/\D/g, ""));
};

function get(agent: http.Agent, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${server.url}${path}`, { agent }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode!));
    });
    request.on("error", reject);
  });
}

async function logTotal(): Promise<{ total: number; paths: string[] }> {
  const result = await admin.get("/api/admin/not-found?limit=100");
  expect(result.status).toBe(200);
  return {
    total: Number(result.headers.get("x-total-count")),
    paths: (result.json as Array<{ path: string }>).map((entry) => entry.path),
  };
}

describe("a flood of unique 404 paths", () => {
  it(
    "leaves the not-found log at its bound, the most-asked path in it, and the server under its memory budget",
    {
      timeout: 240_000,
    },
    async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
      // Asked for often before the flood: it must outlast the flood's one-hit paths.
      for (let i = 0; i < 20; i++) expect(await get(agent, "/an-old-page-people-ask-for")).toBe(404);
      let next = 0;
      const statuses = new Map<number, number>();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < FLOOD) {
            const n = next++;
            // Some long paths too: cut to the log's limit.
            const path = n % 100 === 0 ? `/flood-${n}-${"x".repeat(2000)}` : `/flood-${n}`;
            const status = await get(agent, path);
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
          }
        }),
      );
      agent.destroy();
      expect(statuses).toEqual(new Map([[404, FLOOD]]));

      // Written in batches every few seconds (at most NOT_FOUND_LIMITS.pending
      // new paths each): wait until two reads a batch apart agree.
      let before = -1;
      let log = await logTotal();
      for (let i = 0; i < 20 && log.total !== before; i++) {
        before = log.total;
        await new Promise((resolve) => setTimeout(resolve, 4_000));
        log = await logTotal();
      }
      // More than one batch reached the table, and the table kept its bound.
      expect(log.total).toBeGreaterThan(NOT_FOUND_LIMITS.pending);
      expect(log.total).toBeLessThanOrEqual(NOT_FOUND_LIMITS.rows);
      expect(log.paths[0]).toBe("/an-old-page-people-ask-for");
      const page = await admin.get("/api/admin/not-found?limit=100&offset=200");
      for (const entry of page.json as Array<{ path: string }>) {
        expect(entry.path.length).toBeLessThanOrEqual(NOT_FOUND_LIMITS.path);
      }
      expect(peakRssKb()).toBeLessThan(BUDGET_KB);
    },
  );
});
