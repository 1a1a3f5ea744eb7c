import { sql, type Kysely } from "kysely";
import { isPostgres } from "../dialect.server";

/**
 * Every change of the content version is announced (ADR 075): on PostgreSQL
 * a trigger sends NOTIFY content_version with the new version as it commits,
 * so each process learns of an edit made by any other without reading the
 * version per request. A trigger, not the app's own NOTIFY, so that no write
 * path can forget it. SQLite serves one machine: nothing to announce.
 */

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`
    create function content_version_notify() returns trigger language plpgsql as $$
    begin
      perform pg_notify('content_version', new.version::text);
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger content_version_notify after insert or update on content_version
    for each row execute function content_version_notify()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop trigger content_version_notify on content_version`.execute(db);
  await sql`drop function content_version_notify()`.execute(db);
}
