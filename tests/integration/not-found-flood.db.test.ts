import fs from "node:fs";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, keepAliveAgent, startServer, type TestServer } from "../support/server";
import { NOT_FOUND_LIMITS } from "~/server/redirects/index.server";

/**
 * The not-found log cannot be flooded (issue 31, ADR 054): bursts of unique
 * paths that each answer 404, sent 32 at a time, each more than the counter
 * keeps between two writes, until more paths have reached the table than
 * its bound, leave the table at its bound, keep the most-asked path (the
 * least hit go first), and the server's resident memory under the 200 MB
 * budget (ADR 028). Waiting for each write between bursts makes the table
 * overflow whatever the machine's speed; one unbroken flood of 50,000 did
 * only when it lasted several writes. How fast such hits are answered is
 * measured by `npm run bench`, not here.
 */

/** Unique paths per burst: more than the counter keeps between writes, so it drops some. */
const BURST = NOT_FOUND_LIMITS.pending + 500;
/** Bursts: each leaves at least `pending` new paths in the table, past its bound in all. */
const BURSTS = Math.ceil(NOT_FOUND_LIMITS.rows / NOT_FOUND_LIMITS.pending) + 1;
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
      const agent = keepAliveAgent(CONCURRENCY);
      // Asked for often before the flood: it must outlast the flood's one-hit paths.
      for (let i = 0; i < 20; i++) expect(await get(agent, "/an-old-page-people-ask-for")).toBe(404);
      let offered = 0;
      const statuses = new Map<number, number>();
      let log = await logTotal();
      for (let burst = 0; burst < BURSTS; burst++) {
        let next = 0;
        await Promise.all(
          Array.from({ length: CONCURRENCY }, async () => {
            while (next < BURST) {
              const n = offered + next++;
              // Some long paths too: cut to the log's limit.
              const path = n % 100 === 0 ? `/flood-${n}-${"x".repeat(2000)}` : `/flood-${n}`;
              const status = await get(agent, path);
              statuses.set(status, (statuses.get(status) ?? 0) + 1);
            }
          }),
        );
        // The counter writes every few seconds: the next burst starts once this
        // one is in the table (the newest first among paths asked once).
        const written = () => log.paths.some((path) => Number(/^\/flood-(\d+)/.exec(path)?.[1] ?? -1) >= offered);
        for (let i = 0; i < 40 && !written(); i++) {
          await new Promise((resolve) => setTimeout(resolve, 250));
          log = await logTotal();
        }
        expect(written()).toBe(true);
        offered += BURST;
      }
      agent.destroy();
      expect(statuses).toEqual(new Map([[404, offered]]));

      // A write upserts in batches and trims last: until two reads a write
      // apart agree, the last write may be half done.
      for (let before = -1, i = 0; i < 10 && log.total !== before; i++) {
        before = log.total;
        await new Promise((resolve) => setTimeout(resolve, 3_500));
        log = await logTotal();
      }
      // More paths than its bound reached the table, which kept its bound.
      expect(log.total).toBe(NOT_FOUND_LIMITS.rows);
      expect(log.paths[0]).toBe("/an-old-page-people-ask-for");
      const page = await admin.get("/api/admin/not-found?limit=100&offset=200");
      for (const entry of page.json as Array<{ path: string }>) {
        expect(entry.path.length).toBeLessThanOrEqual(NOT_FOUND_LIMITS.path);
      }
      expect(peakRssKb()).toBeLessThan(BUDGET_KB);
    },
  );
});
