import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshSqlite } from "../../../tests/support/database";
import { EVENT_LOOP_BUDGET_MS, measureEventLoopHold } from "../platform/event-loop.server";
import { ReaderDeadlineError, SqliteReader } from "./sqlite-reader.server";

/**
 * The SQLite reader (ADR 048): reads on a worker thread with a read-only
 * connection of its own, seeing what the app's connection committed, never
 * writing, and never holding the event loop however long a read runs. SQLite
 * only: PostgreSQL runs its queries in its own server.
 */

describe("SqliteReader", () => {
  let database: Awaited<ReturnType<typeof freshSqlite>>;
  let reader: SqliteReader;

  beforeAll(async () => {
    database = await freshSqlite();
    reader = new SqliteReader(database.file, 500);
  });
  afterAll(async () => {
    await reader?.close();
    await database?.cleanup();
  });

  const count = () => sql<{ n: number }>`select count(*) as n from rate_limits`.compile(database.connection.db);
  const insert = (key: string) =>
    database.connection.db.insertInto("rate_limits").values({ key, points: 1, expire: null }).execute();

  it("reads what the app's connection has committed, with bound values", async () => {
    expect(await reader.all(count())).toEqual([{ n: 0 }]);
    await insert("a");
    await insert("b");
    expect(await reader.all(count())).toEqual([{ n: 2 }]);
    const query = sql<{ key: string }>`select key from rate_limits where key = ${"b"}`.compile(database.connection.db);
    expect(await reader.all(query)).toEqual([{ key: "b" }]);
  });

  it("cannot write, and a failing statement fails only its own read", async () => {
    const write = sql`insert into rate_limits (key, points) values ('c', 1) returning key`.compile(
      database.connection.db,
    );
    await expect(reader.all(write)).rejects.toThrow(/readonly/);
    await expect(reader.all(sql`select * from no_such_table`.compile(database.connection.db))).rejects.toThrow(
      /no such table/,
    );
    expect(await reader.all(count())).toEqual([{ n: 2 }]);
  });

  it("ends a read that runs past its deadline, and the loop stays free meanwhile; no second thread until it has ended", async () => {
    const strict = new SqliteReader(database.file, 100);
    // Counts to five million: hundreds of milliseconds of a core, past the 100 ms deadline.
    const slow = sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 5000000)
      select count(*) as n from n`.compile(database.connection.db);
    try {
      const hold = measureEventLoopHold();
      await expect(strict.all(slow)).rejects.toBeInstanceOf(ReaderDeadlineError);
      // The site's budget for one piece of work: the read on this thread would hold it for the whole count.
      expect(hold.stop()).toBeLessThan(EVENT_LOOP_BUDGET_MS);
      // SQLite cannot be stopped inside a statement: the thread finishes the count, and meanwhile reads are refused.
      await expect(strict.all(count())).rejects.toThrow(/still running/);
    } finally {
      await strict.close();
    }
    expect(await strict.all(count())).toEqual([{ n: 2 }]);
    await strict.close();
  });

  it("a thread's end fails only the reads sent to it", async () => {
    const closing = reader.close();
    const read = reader.all(count());
    await closing;
    expect(await read).toEqual([{ n: 2 }]);
  });

  it("starts again after close", async () => {
    await reader.close();
    expect(await reader.all(count())).toEqual([{ n: 2 }]);
  });
});
