import SqliteDatabase from "better-sqlite3";
import pg from "pg";

/**
 * Fills a migrated site database with `count` generated posts in one
 * statement (a second or two for 10,000, where the API would render each
 * body), for tests of what a large site does. Post i (1 to count):
 * - id `00000000-0000-4000-8000-` + i in 12 digits, slug `generated-post-` + i in 5 digits;
 * - title `Generated post 00042`, except `Needle in the haystack` (i = 4242)
 *   and `Discount 100% off, number N` (i = 7, 1007, 2007, ...);
 * - published when i is odd; publishDate 2020-01-01 plus i minutes (the
 *   newest is i = count);
 * - content GENERATED_CONTENT (about 1,000 words), HTML beside it, unless
 *   `content` is given: a test of titles or addresses passes a line, since
 *   indexing 1,000 words a post for search is most of the work (PostgreSQL's
 *   tsvector: 29 s of 20,100 posts for the sitemap, against a few without).
 * They bypass the content version: public pages cached before may not show them.
 */
export async function generatePosts(
  databaseUrl: string,
  count: number,
  { content = GENERATED_CONTENT }: { content?: string } = {},
): Promise<void> {
  if (databaseUrl.startsWith("postgres")) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(
        `insert into posts (id, title, slug, excerpt, content, content_html, category, author,
                            publish_date, read_time, published, header_image, created_at, updated_at)
         select '00000000-0000-4000-8000-' || lpad(i::text, 12, '0'),
                case when i = 4242 then 'Needle in the haystack'
                     when i % 1000 = 7 then 'Discount 100% off, number ' || i
                     else 'Generated post ' || lpad(i::text, greatest(5, length(i::text)), '0') end,
                'generated-post-' || lpad(i::text, greatest(5, length(i::text)), '0'),
                'An excerpt of a generated post.',
                $2, '<p>' || $2 || '</p>', 'Generated', 'Ojai Technology Services',
                to_char(timestamp '2020-01-01' + i * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                '5 min read', i % 2, null, $3, $3
         from generate_series(1, $1::int) as i`,
        [count, content, new Date().toISOString()],
      );
    } finally {
      await client.end();
    }
    return;
  }
  const sqlite = new SqliteDatabase(databaseUrl);
  try {
    sqlite.pragma("busy_timeout = 5000");
    sqlite
      .prepare(
        `with recursive n(i) as (select 1 union all select i + 1 from n where i < @count)
         insert into posts (id, title, slug, excerpt, content, content_html, category, author,
                            publish_date, read_time, published, header_image, created_at, updated_at)
         select printf('00000000-0000-4000-8000-%012d', i),
                case when i = 4242 then 'Needle in the haystack'
                     when i % 1000 = 7 then 'Discount 100% off, number ' || i
                     else printf('Generated post %05d', i) end,
                printf('generated-post-%05d', i),
                'An excerpt of a generated post.',
                @content, '<p>' || @content || '</p>', 'Generated', 'Ojai Technology Services',
                strftime('%Y-%m-%dT%H:%M:%fZ', '2020-01-01', '+' || i || ' minutes'),
                '5 min read', i % 2, null, @now, @now
         from n`,
      )
      .run({ count, content, now: new Date().toISOString() });
  } finally {
    sqlite.close();
  }
}

/** A body for tests that read only titles, dates and addresses. */
export const ONE_LINE_CONTENT = "A generated post.";

/** About 1,000 words of markdown. */
export const GENERATED_CONTENT = "Lorem ipsum dolor sit amet. ".repeat(200).trim();

/** The title of generated post i. */
export function generatedTitle(i: number): string {
  if (i === 4242) return "Needle in the haystack";
  if (i % 1000 === 7) return `Discount 100% off, number ${i}`;
  return `Generated post ${String(i).padStart(5, "0")}`;
}

/** The id of generated post i. */
export function generatedId(i: number): string {
  return `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
}
