import { spawn } from "node:child_process";
import fs from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { answers, postgresForTests, startPrivatePostgres } from "../../scripts/lib/private-postgres.mjs";

/**
 * The PostgreSQL `npm test` starts when none answers (ADR 049,
 * docs/testing.md): it serves, it goes when asked, and it goes when the
 * process that started it is killed outright.
 */

/** A port no PostgreSQL listens on. */
const NOWHERE = "postgres://postgres@127.0.0.1:1/test";

async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(200);
  }
  return check();
}

describe("a private PostgreSQL for the test run", () => {
  it("creates databases, and destroy() stops it and removes its folder", async () => {
    const cluster = await startPrivatePostgres();
    try {
      expect(fs.existsSync(cluster.dir)).toBe(true);
      const url = await cluster.createDatabase("made_here");
      expect(await answers(url)).toBe(true);
    } finally {
      cluster.destroy();
    }
    expect(fs.existsSync(cluster.dir)).toBe(false);
    expect(await answers(cluster.adminUrl)).toBe(false);
  }, 60_000);

  it("is started when the default server does not answer and no URL was given", async () => {
    const found = await postgresForTests({ fallback: NOWHERE });
    try {
      expect(found.cluster).toBeDefined();
      expect(await answers(found.url)).toBe(true);
    } finally {
      found.cluster?.destroy();
    }
  }, 60_000);

  it("is never started in place of a URL given explicitly: that is an error", async () => {
    await expect(postgresForTests({ explicit: NOWHERE })).rejects.toThrow(/does not answer/);
  });

  it("goes when the process that started it is killed with SIGKILL", async () => {
    const script = `
      const { startPrivatePostgres } = await import(${JSON.stringify(new URL("../../scripts/lib/private-postgres.mjs", import.meta.url).href)});
      const cluster = await startPrivatePostgres({ reapAfter: process.pid });
      console.log(JSON.stringify({ dir: cluster.dir, url: cluster.adminUrl }));
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const started = await new Promise<{ dir: string; url: string }>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("\n")) resolve(JSON.parse(out.split("\n")[0]!) as { dir: string; url: string });
      });
      child.once("exit", (code) => reject(new Error(`the starter exited with ${code}`)));
    });
    expect(await answers(started.url)).toBe(true);
    child.kill("SIGKILL");
    expect(await until(() => !fs.existsSync(started.dir), 15_000)).toBe(true);
    expect(await answers(started.url)).toBe(false);
  }, 60_000);
});
