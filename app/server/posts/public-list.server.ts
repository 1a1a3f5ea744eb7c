import { sql } from "kysely";
import type { Connection, Db } from "../db/db.server";
import { inSnapshot } from "../db/snapshot.server";
import { contentVersionReader } from "../db/content-version.server";

/**
 * The shape of the blog's public list (newest publishDate first, ties by id):
 * how many posts it holds, and every ANCHOR_SPACING posts or so an anchor that
 * says how many posts come before a publish date. With it an article's place
 * and a list page's start cost a read of at most about ANCHOR_SPACING index
 * entries instead of a count of the whole list or of every newer post
 * (issue 15, ADR 029).
 *
 * A process keeps one shape, read on one snapshot and used while the content
 * version it was read at is current and no scheduled post has come due since
 * (the page cache's rule, ADR 024): every write of public content in any
 * process bumps the version, and scheduled posts turn public by the clock.
 */

/** Posts between anchors: ~100 at 100,000 posts (a few KB); an article's place reads at most this many index entries. */
export const ANCHOR_SPACING = 1024;

/** Every public post with a later publish date than `date` comes first in the list: `before` of them. */
export interface Anchor {
  date: string;
  before: number;
}

export interface PublicListShape {
  /** The content version of the snapshot it was read on. */
  version: string;
  /** Public posts. */
  total: number;
  /** Newest first; the first is the newest public post's date, `before` 0. Empty when nothing is public. */
  anchors: Anchor[];
  /** The earliest publish date of a published post not public when it was read: it no longer holds from then. */
  nextScheduled: string | undefined;
}

/**
 * The public list's shape at `now`, read on one snapshot (inSnapshot): the
 * version, the anchors, and the next scheduled publication agree.
 */
export function readListShape(connection: Connection, now: Date): Promise<PublicListShape> {
  const at = now.toISOString();
  return inSnapshot(connection, async (db) => {
    const version = await db
      .selectFrom("content_version")
      .select("version")
      .where("id", "=", 1)
      .executeTakeFirstOrThrow();
    const anchors = await walkAnchors(db, at);
    const last = anchors.at(-1);
    // Past the last landing, fewer than a stride of posts: count them.
    const total = last ? last.before + last.ties + (await countOlder(db, last.date)) : 0;
    const next = await db
      .selectFrom("posts")
      .select((eb) => eb.fn.min("publish_date").as("next"))
      .where("published", "=", 1)
      .where("publish_date", ">", at)
      .executeTakeFirst();
    return {
      version: String(version.version),
      total,
      anchors: anchors.map(({ date, before }) => ({ date, before })),
      nextScheduled: next?.next ? String(next.next) : undefined,
    };
  });
}

/**
 * The anchors, in one statement: it walks the index posts_order_idx backwards
 * (publish_date desc, id desc, so no sort) from the newest public post,
 * landing ANCHOR_SPACING posts after the previous landing's moment ends. At
 * each landing it counts the posts of that moment (`ties`) and those the walk
 * met before the landing, so `before` is exact however many posts share a
 * moment. Anchors are then at most ANCHOR_SPACING posts plus one moment apart.
 *
 * At 100,000 posts it costs about what counting them does (SQLite ~2.5 ms,
 * run without giving up the event loop; PostgreSQL one round trip). A
 * statement per stride cost ~100 round trips on PostgreSQL, and window
 * functions (row_number, rank) 20x a count on SQLite (ADR 029).
 */
async function walkAnchors(db: Db, at: string): Promise<Array<Anchor & { ties: number }>> {
  // The same offset every stride (SQLite's OFFSET cannot depend on the previous row).
  const stride = ANCHOR_SPACING - 1;
  const { rows } = await sql<{ publish_date: string; before: number | string; ties: number | string }>`
    with recursive walk (publish_date, before, ties) as (
      select landing.publish_date,
        0 - (select count(*) from posts
              where published = 1 and publish_date = landing.publish_date and id > landing.id),
        (select count(*) from posts where published = 1 and publish_date = landing.publish_date)
      from posts as landing
      where landing.id = (select id from posts
                          where published = 1 and publish_date <= ${at}
                          order by publish_date desc, id desc
                          limit 1)
      union all
      select landing.publish_date,
        walk.before + walk.ties + ${stride}
          - (select count(*) from posts
              where published = 1 and publish_date = landing.publish_date and id > landing.id),
        (select count(*) from posts where published = 1 and publish_date = landing.publish_date)
      from walk
      join posts as landing
        on landing.id = (select id from posts
                         where published = 1 and publish_date < walk.publish_date
                         order by publish_date desc, id desc
                         limit 1 offset ${stride})
    )
    select publish_date, before, ties from walk`.execute(db);
  return rows.map((row) => ({ date: row.publish_date, before: Number(row.before), ties: Number(row.ties) }));
}

async function countOlder(db: Db, date: string): Promise<number> {
  const row = await db
    .selectFrom("posts")
    .select((eb) => eb.fn.countAll<string | number>().as("n"))
    .where("published", "=", 1)
    .where("publish_date", "<", date)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The last anchor whose date is `date` or later: the one to count an article's place from. */
export function anchorAtOrAfterDate(shape: PublicListShape, date: string): Anchor | undefined {
  return lastWhere(shape.anchors, (anchor) => anchor.date >= date);
}

/** The last anchor with at most `index` posts before it: the one to read the list from `index` on. */
export function anchorAtOrBeforeIndex(shape: PublicListShape, index: number): Anchor | undefined {
  return lastWhere(shape.anchors, (anchor) => anchor.before <= index);
}

/** The last item for which `test` holds, in a list where it holds for a prefix (binary search). */
function lastWhere<T>(items: T[], test: (item: T) => boolean): T | undefined {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (test(items[middle]!)) low = middle + 1;
    else high = middle;
  }
  return items[low - 1];
}

/**
 * Whether `shape` is the public list at content version `version` and moment
 * `at` (ISO, compared as the queries compare publish dates): nothing public
 * then is newer than its newest post, and nothing scheduled has come due.
 */
function holds(shape: PublicListShape, version: string, at: string): boolean {
  return shape.version === version && holdsAt(shape, at);
}
function holdsAt(shape: PublicListShape, at: string): boolean {
  return (shape.anchors[0]?.date ?? "") <= at && (shape.nextScheduled === undefined || at < shape.nextScheduled);
}

const memos = new WeakMap<Connection, (now: Date) => Promise<PublicListShape>>();

/**
 * The public list's shape at `now`: this process's kept one when it still
 * holds (one read of the content version), else read again. Each connection
 * (each process, in production) keeps its own.
 */
export function currentListShape(connection: Connection, now: Date): Promise<PublicListShape> {
  let current = memos.get(connection);
  if (!current) memos.set(connection, (current = listShapeMemo(connection)));
  return current(now);
}

function listShapeMemo(connection: Connection): (now: Date) => Promise<PublicListShape> {
  const readVersion = contentVersionReader(connection);
  let kept: PublicListShape | undefined;
  // The read under way and the version its caller saw: a caller that saw the
  // same version shares it (its snapshot is that version or newer) instead of
  // reading the list again (PostgreSQL; on SQLite reads run one at a time).
  let reading: { version: string; shape: Promise<PublicListShape> } | undefined;
  return async (now) => {
    const at = now.toISOString();
    const version = await readVersion();
    if (kept && holds(kept, version, at)) return kept;
    if (reading?.version === version) {
      const shared = await reading.shape;
      if (holdsAt(shared, at)) return shared;
    }
    const shape = readListShape(connection, now);
    reading = { version, shape };
    try {
      const read = await shape;
      if (!kept || BigInt(read.version) >= BigInt(kept.version)) kept = read;
      return read;
    } finally {
      if (reading?.shape === shape) reading = undefined;
    }
  };
}
