// Large data sets for the measuring scripts: posts copied inside the SQLite
// database from posts the admin API made (so their HTML came from the real
// markdown pipeline), because 100,000 posts through the API take ~10 minutes.
import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";

/**
 * Adds posts bench-post-{from+1} ... bench-post-{total} to the SQLite database
 * `file`, each a copy of one already there, one minute apart and older than
 * every post there; bumps the content version so a running site sees them.
 * Answers their slugs, newest first.
 */
export function copyPosts(file, from, total) {
  const db = new Database(file);
  try {
    const sources = db.prepare("select * from posts").all();
    if (sources.length === 0) throw new Error("copyPosts needs posts to copy");
    const columns = Object.keys(sources[0]);
    const oldest = Date.parse(db.prepare("select min(publish_date) from posts").pluck().get());
    const insert = db.prepare(
      `insert into posts (${columns.join(", ")}) values (${columns.map((c) => `@${c}`).join(", ")})`,
    );
    const slugs = [];
    db.transaction(() => {
      for (let i = from; i < total; i++) {
        const date = new Date(oldest - (i - from + 1) * 60_000).toISOString();
        const slug = `bench-post-${i + 1}`;
        insert.run({
          ...sources[i % sources.length],
          id: randomUUID(),
          slug,
          title: `Bench post ${i + 1}: notes from the field`,
          publish_date: date,
          created_at: date,
          updated_at: date,
        });
        slugs.push(slug);
      }
      db.prepare("update content_version set version = version + 1 where id = 1").run();
    })();
    return slugs;
  } finally {
    db.close();
  }
}
