import { type Kysely } from "kysely";

/**
 * The newsletter (issue 46, ADR 072).
 *
 * `subscribers`: each address that asked for the newsletter (or that the
 * owner imported). `email` is stored lower-cased and is unique; `status` is
 * pending until the confirmation link's button is pressed, then confirmed,
 * or unsubscribed. `consent` says how it came: the form, or an import the
 * owner vouched for. `confirm_sent_at` is when the last confirmation mail was
 * queued (one a day at most).
 *
 * `newsletter_mailings`: a post e-mailed to the subscribers, at most one per
 * post (the unique post_id), with its running counts.
 *
 * `newsletter_recipients`: who a mailing goes to, fixed when it starts, and
 * each one's send: pending, sent, failed or skipped (gone before their turn).
 * A send is marked sent in the database before the mail server is told the
 * message is complete, so a killed process never sends anyone a second copy.
 *
 * `posts` gains `email_subscribers`: the owner asked that the post be
 * e-mailed when it becomes public.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("subscribers")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("email", "varchar(320)", (c) => c.notNull())
    .addColumn("status", "varchar(12)", (c) => c.notNull())
    .addColumn("consent", "varchar(12)", (c) => c.notNull())
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .addColumn("confirm_sent_at", "varchar(30)")
    .addColumn("confirmed_at", "varchar(30)")
    .addColumn("unsubscribed_at", "varchar(30)")
    .execute();
  await db.schema.createIndex("subscribers_email_idx").on("subscribers").column("email").unique().execute();
  await db.schema.createIndex("subscribers_status_idx").on("subscribers").columns(["status", "created_at"]).execute();

  await db.schema
    .createTable("newsletter_mailings")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("post_id", "varchar(36)", (c) => c.notNull().references("posts.id").onDelete("cascade"))
    .addColumn("status", "varchar(12)", (c) => c.notNull())
    .addColumn("recipients", "integer", (c) => c.notNull())
    .addColumn("sent", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("failed", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .addColumn("finished_at", "varchar(30)")
    .execute();
  await db.schema
    .createIndex("newsletter_mailings_post_idx")
    .on("newsletter_mailings")
    .column("post_id")
    .unique()
    .execute();

  await db.schema
    .createTable("newsletter_recipients")
    .addColumn("mailing_id", "varchar(36)", (c) => c.notNull().references("newsletter_mailings.id").onDelete("cascade"))
    .addColumn("subscriber_id", "varchar(36)", (c) => c.notNull())
    .addColumn("status", "varchar(12)", (c) => c.notNull())
    .addColumn("sent_at", "varchar(30)")
    .addColumn("error", "varchar(300)")
    .addPrimaryKeyConstraint("newsletter_recipients_pk", ["mailing_id", "subscriber_id"])
    .execute();
  await db.schema
    .createIndex("newsletter_recipients_status_idx")
    .on("newsletter_recipients")
    .columns(["mailing_id", "status", "subscriber_id"])
    .execute();

  await db.schema
    .alterTable("posts")
    .addColumn("email_subscribers", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("posts").dropColumn("email_subscribers").execute();
  await db.schema.dropTable("newsletter_recipients").execute();
  await db.schema.dropTable("newsletter_mailings").execute();
  await db.schema.dropTable("subscribers").execute();
}
