// WordPress export (WXR) files made by the tests and by npm run bench:import
// (issue 48, ADR 074), shaped as WordPress writes them: the channel with its
// authors and categories, items with their post ids, states, GMT dates,
// permalinks, categories, postmeta and a comment, attachments apart; a draft
// with WordPress's zero dates.
// Types: exports.d.mts.

const cdata = (text) => `<![CDATA[${text.replaceAll("]]>", "]]]]><![CDATA[>")}]]>`;

/** One `<item>` as WordPress writes it. */
export function wxrItem(post, site) {
  const status = post.status ?? "publish";
  const link = post.link ?? (status === "publish" ? `${site}/${post.slug}/` : `${site}/?p=${post.id}`);
  return `
    <item>
      <title>${cdata(post.title)}</title>
      <link>${link}</link>
      <pubDate>${status === "draft" ? "Mon, 30 Nov -0001 00:00:00 +0000" : "Sun, 05 Jan 2020 10:00:00 +0000"}</pubDate>
      <dc:creator>${cdata(post.creator ?? "owner")}</dc:creator>
      <guid isPermaLink="false">${site}/?p=${post.id}</guid>
      <description></description>
      <content:encoded>${cdata(post.html ?? `<p>Body of ${post.title}</p>`)}</content:encoded>
      <excerpt:encoded>${cdata(post.excerpt ?? "")}</excerpt:encoded>
      <wp:post_id>${post.id}</wp:post_id>
      <wp:post_date>${cdata(post.dateGmt ?? "2020-01-05 10:00:00")}</wp:post_date>
      <wp:post_date_gmt>${cdata(status === "draft" ? "0000-00-00 00:00:00" : (post.dateGmt ?? "2020-01-05 10:00:00"))}</wp:post_date_gmt>
      <wp:comment_status>${cdata("open")}</wp:comment_status>
      <wp:post_name>${cdata(post.slug)}</wp:post_name>
      <wp:status>${cdata(status)}</wp:status>
      <wp:post_parent>0</wp:post_parent>
      <wp:post_type>${cdata(post.type ?? "post")}</wp:post_type>
      ${post.category ? `<category domain="category" nicename="${post.category.nicename}">${cdata(post.category.name)}</category>` : ""}
      <category domain="post_tag" nicename="misc">${cdata("Misc")}</category>
      ${post.thumbnailId ? `<wp:postmeta><wp:meta_key>${cdata("_thumbnail_id")}</wp:meta_key><wp:meta_value>${cdata(String(post.thumbnailId))}</wp:meta_value></wp:postmeta>` : ""}
      <wp:comment><wp:comment_id>1</wp:comment_id><wp:comment_content>${cdata("A comment, not imported")}</wp:comment_content></wp:comment>
    </item>`;
}

function attachmentItem(attachment, site) {
  return `
    <item>
      <title>${cdata("image")}</title>
      <link>${site}/?attachment_id=${attachment.id}</link>
      <wp:post_id>${attachment.id}</wp:post_id>
      <wp:status>${cdata("inherit")}</wp:status>
      <wp:post_type>${cdata("attachment")}</wp:post_type>
      <wp:attachment_url>${cdata(attachment.url)}</wp:attachment_url>
      ${attachment.alt ? `<wp:postmeta><wp:meta_key>${cdata("_wp_attachment_image_alt")}</wp:meta_key><wp:meta_value>${cdata(attachment.alt)}</wp:meta_value></wp:postmeta>` : ""}
    </item>`;
}

/** The file's start: the XML declaration, the RSS root with WordPress's namespaces, the channel's own facts. */
export function wxrHead(site) {
  return `<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0"
  xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/"
  xmlns:content="http://purl.org/rss/1.0/modules/content/"
  xmlns:wfw="http://wellformedweb.org/CommentAPI/"
  xmlns:dc="http://purl.org/dc/elements/1.1/"
  xmlns:wp="http://wordpress.org/export/1.2/">
<channel>
  <title>Old site</title>
  <link>${site}</link>
  <language>en-US</language>
  <wp:wxr_version>1.2</wp:wxr_version>
  <wp:base_site_url>${site}</wp:base_site_url>
  <wp:base_blog_url>${site}</wp:base_blog_url>
  <wp:author><wp:author_id>1</wp:author_id><wp:author_login>${cdata("owner")}</wp:author_login><wp:author_display_name>${cdata("Olivia Owner")}</wp:author_display_name></wp:author>
  <wp:category><wp:term_id>2</wp:term_id><wp:category_nicename>${cdata("news")}</wp:category_nicename><wp:cat_name>${cdata("News")}</wp:cat_name></wp:category>
`;
}

export const WXR_TAIL = "\n</channel>\n</rss>\n";

export function wxrFile(site, posts, attachments = []) {
  return (
    wxrHead(site) +
    posts.map((post) => wxrItem(post, site)).join("") +
    attachments.map((attachment) => attachmentItem(attachment, site)).join("") +
    WXR_TAIL
  );
}

/** A post of about `bytes` of HTML, for the big files. */
export function bulkPost(id, bytes = 3000) {
  const paragraph = `<p>Paragraph of post ${id} with <strong>some</strong> words and a <a href="https://example.com/${id}">link</a>.</p>\n`;
  return {
    id,
    title: `Bulk post ${id}`,
    slug: `bulk-post-${id}`,
    html: paragraph.repeat(Math.max(1, Math.round(bytes / paragraph.length))),
    category: { name: `Topic ${id % 20}`, nicename: `topic-${id % 20}` },
    dateGmt: `2019-${String((id % 12) + 1).padStart(2, "0")}-${String((id % 28) + 1).padStart(2, "0")} 08:00:00`,
  };
}
