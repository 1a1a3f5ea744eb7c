import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { pageCache } from "./cache.server";

/**
 * The page cache in an Express app of its own, wired as server/app.ts wires
 * it (hits before the app, the miss's copy kept as the app writes it), with
 * the clock of the next scheduled post made slow: on a busy PostgreSQL that
 * read can end after the render has.
 */

const servers: Array<{ close: () => void }> = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

async function site({ scheduledReadMs }: { scheduledReadMs: number }) {
  let renders = 0;
  const cache = pageCache({
    maxBytes: 1_000_000,
    readVersion: () => Promise.resolve("1"),
    nextScheduledChange: () => new Promise((resolve) => setTimeout(() => resolve(undefined), scheduledReadMs)),
    cacheKey: (url) => url,
  });
  const app = express();
  app.use((req, res, next) => cache.answerHits(req, res, next));
  app.use(cache.fillOnMiss);
  app.get("/page", (_req, res) => {
    renders += 1;
    res.set("Cache-Control", "public, max-age=0").type("text/plain").send(`render ${renders}`);
  });
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/page`;
  return { url, renders: () => renders };
}

describe("a miss stored as its answer ends", () => {
  it("is a hit for the next request, though the scheduled posts' read ends after the answer", async () => {
    const { url, renders } = await site({ scheduledReadMs: 300 });
    const first = await fetch(url);
    expect(first.headers.get("x-cache")).toBe("miss");
    expect(await first.text()).toBe("render 1");
    const second = await fetch(url);
    expect(second.headers.get("x-cache")).toBe("hit");
    expect(await second.text()).toBe("render 1");
    expect(renders()).toBe(1);
  });
});
