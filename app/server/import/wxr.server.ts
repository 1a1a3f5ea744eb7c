import sax from "sax";
import {
  bounded,
  IMPORT_LIMITS,
  ImportFileError,
  type ReadFile,
  type SourcePost,
  siteAddress,
  type SourceState,
  withoutTrailingSlashes,
} from "./source.server";

/**
 * A WordPress export (WXR: RSS 2.0 with WordPress's own elements), read as a
 * stream with `sax` in two passes over the stored file: the first learns the
 * authors' names, the attachments (a featured image is an attachment named
 * by id, often after its post) and how many posts there are; the second
 * yields the posts in file order. Only one chunk's items are held at a time,
 * and each text is cut at its limit as it arrives, so a 5,000-post file or
 * a 100 MB body costs no more memory than a small one. A document type is
 * refused outright: WordPress never writes one, and it is how entity
 * expansion (billion laughs) gets in; sax itself expands no declared entity.
 */

/** What an `<item>` holds, as far as the import reads it. */
interface RawItem {
  fields: Map<string, string>;
  /** `<category domain="category" nicename="...">Name</category>`, in order. */
  categories: Array<{ name: string; nicename: string }>;
  /** `<wp:postmeta>` keys and values the import uses. */
  meta: Map<string, string>;
  /** Whether content:encoded was longer than IMPORT_LIMITS.htmlChars. */
  htmlTooLong: boolean;
}

interface Channel {
  siteUrl: string | null;
  authors: Map<string, string>;
  attachments: Map<string, { url: string; alt: string }>;
  /** Posts and pages: what the second pass yields. */
  posts: number;
}

const ITEM_FIELDS = new Set([
  "title",
  "link",
  "pubDate",
  "dc:creator",
  "guid",
  "content:encoded",
  "excerpt:encoded",
  "wp:post_id",
  "wp:post_date",
  "wp:post_date_gmt",
  "wp:post_name",
  "wp:status",
  "wp:post_type",
  "wp:attachment_url",
]);
const META_KEYS = new Set(["_thumbnail_id", "_wp_attachment_image_alt"]);

type Sink = (event: { kind: "item"; item: RawItem } | { kind: "channel"; name: string; text: string }) => void;

/** A sax parser that hands each finished item (and each channel-level text) to `sink`. */
function wxrParser(sink: Sink): sax.SAXParser {
  const parser = sax.parser(true, { trim: false, normalize: false, position: true });
  const path: string[] = [];
  let item: RawItem | undefined;
  let field: string | undefined;
  let text = "";
  let limit = 0;
  let category: { nicename: string; domain: string } | undefined;
  let metaKey: string | undefined;
  let author: { login: string; name: string } | undefined;

  parser.ondoctype = () => {
    throw new ImportFileError(
      "The file declares a document type (<!DOCTYPE>): WordPress exports never do, so it was not read",
    );
  };
  parser.onopentag = (tag) => {
    path.push(tag.name);
    const name = tag.name;
    if (name === "item" && path.length === 3) {
      item = { fields: new Map(), categories: [], meta: new Map(), htmlTooLong: false };
      return;
    }
    const take = (maxChars: number) => {
      field = name;
      text = "";
      limit = maxChars;
    };
    if (item && path.length === 4) {
      if (ITEM_FIELDS.has(name))
        take(name === "content:encoded" ? IMPORT_LIMITS.htmlChars + 1 : IMPORT_LIMITS.textChars);
      else if (name === "category") {
        const attributes = tag.attributes as Record<string, string>;
        category = { nicename: attributes.nicename ?? "", domain: attributes.domain ?? "" };
        take(IMPORT_LIMITS.textChars);
      }
    } else if (item && path.length === 5 && path[3] === "wp:postmeta") {
      if (name === "wp:meta_key" || name === "wp:meta_value") take(IMPORT_LIMITS.textChars);
    } else if (
      !item &&
      path.length === 3 &&
      (name === "wp:base_site_url" || name === "wp:base_blog_url" || name === "link")
    )
      take(IMPORT_LIMITS.textChars);
    else if (!item && path.length === 3 && name === "wp:author") author = { login: "", name: "" };
    else if (author && path.length === 4 && (name === "wp:author_login" || name === "wp:author_display_name"))
      take(IMPORT_LIMITS.textChars);
  };
  const append = (chunk: string) => {
    if (field === undefined) return;
    if (text.length < limit) text += chunk.length > limit - text.length ? chunk.slice(0, limit - text.length) : chunk;
  };
  parser.ontext = append;
  parser.oncdata = append;
  parser.onclosetag = (name) => {
    if (field === name) {
      const value = text;
      field = undefined;
      text = "";
      if (item && path.length === 4) closeItemField(item, name, value, category);
      else if (item && path.length === 5) {
        if (name === "wp:meta_key") metaKey = value.trim();
        else if (metaKey && META_KEYS.has(metaKey)) item.meta.set(metaKey, value.trim());
      } else if (author && path.length === 4) {
        if (name === "wp:author_login") author.login = value.trim();
        else author.name = value.trim();
      } else sink({ kind: "channel", name, text: value.trim() });
    }
    if (name === "category") category = undefined;
    if (name === "wp:author" && author && path.length === 3) {
      if (author.login) sink({ kind: "channel", name: `author:${author.login}`, text: author.name });
      author = undefined;
    }
    if (name === "item" && item && path.length === 3) {
      sink({ kind: "item", item });
      item = undefined;
    }
    path.pop();
  };
  parser.onerror = (error) => {
    if (error instanceof ImportFileError) throw error;
    throw new ImportFileError(
      `The file is not well-formed XML (line ${parser.line + 1}): ${error.message.split("\n")[0]}. Export it again from WordPress`,
    );
  };
  return parser;
}

function closeItemField(
  item: RawItem,
  name: string,
  value: string,
  category: { nicename: string; domain: string } | undefined,
): void {
  if (name === "category") {
    if (category?.domain === "category" && item.categories.length < 20)
      item.categories.push({ name: value.trim(), nicename: category.nicename });
    return;
  }
  if (name === "content:encoded" && value.length > IMPORT_LIMITS.htmlChars) item.htmlTooLong = true;
  item.fields.set(name, name === "content:encoded" ? value : value.trim());
}

/**
 * Runs the parser over the whole file, handing on each event; between
 * chunks the queued items are yielded, so the caller's work on them
 * (awaited) paces the reading.
 */
async function* events(read: ReadFile): AsyncGenerator<Parameters<Sink>[0]> {
  const queue: Array<Parameters<Sink>[0]> = [];
  const parser = wxrParser((event) => queue.push(event));
  const decoder = new TextDecoder("utf-8");
  let sawRoot = false;
  parser.onopentagstart = (tag) => {
    if (!sawRoot && tag.name !== "rss") throw notWxr();
    sawRoot = true;
  };
  for await (const chunk of read()) {
    parser.write(decoder.decode(chunk, { stream: true }));
    while (queue.length > 0) yield queue.shift()!;
  }
  parser.write(decoder.decode()).close();
  while (queue.length > 0) yield queue.shift()!;
  if (!sawRoot) throw notWxr();
}

const notWxr = () =>
  new ImportFileError("This is not a WordPress export: a WordPress export (WXR) is an XML file that starts with <rss>");

/** The first pass: the site's address, the authors, the attachments and the number of posts. */
async function readChannel(read: ReadFile): Promise<Channel> {
  const channel: Channel = { siteUrl: null, authors: new Map(), attachments: new Map(), posts: 0 };
  let blogUrl: string | null = null;
  let link: string | null = null;
  for await (const event of events(read)) {
    if (event.kind === "channel") {
      if (event.name === "wp:base_site_url") channel.siteUrl = siteUrlOf(event.text);
      else if (event.name === "wp:base_blog_url") blogUrl = siteUrlOf(event.text);
      else if (event.name === "link") link = siteUrlOf(event.text);
      else if (event.name.startsWith("author:") && channel.authors.size < IMPORT_LIMITS.names)
        channel.authors.set(event.name.slice("author:".length), event.text);
      continue;
    }
    const { fields, meta } = event.item;
    const type = fields.get("wp:post_type");
    const status = fields.get("wp:status");
    if ((type === "post" || type === "page") && status !== "auto-draft" && status !== "inherit") channel.posts++;
    else if (type === "attachment" && channel.attachments.size < IMPORT_LIMITS.names) {
      const url = fields.get("wp:attachment_url") || fields.get("guid");
      const id = fields.get("wp:post_id");
      if (url && id) channel.attachments.set(id, { url, alt: meta.get("_wp_attachment_image_alt") ?? "" });
    }
  }
  channel.siteUrl ??= blogUrl ?? link;
  return channel;
}

/** An address as a site URL: scheme, host and path without a trailing slash; null when it is none. */
function siteUrlOf(text: string): string | null {
  try {
    const url = new URL(text);
    if (url.protocol !== "https:" && url.protocol !== "http:") return null;
    return siteAddress(url);
  } catch {
    return null;
  }
}

const STATES: Record<string, SourceState> = {
  publish: "published",
  future: "scheduled",
  draft: "draft",
  pending: "draft",
  private: "draft",
};

const EARLIEST_DATE = Date.UTC(1900, 0, 1);
const LATEST_DATE = Date.UTC(9999, 0, 1);

/** The post's date: WordPress's GMT date, else the RSS date, else its local date read as UTC. */
function dateOf(fields: Map<string, string>): string | null {
  const gmt = fields.get("wp:post_date_gmt");
  const candidates = [
    gmt && !gmt.startsWith("0000") ? `${gmt.replace(" ", "T")}Z` : undefined,
    fields.get("pubDate"),
    fields.get("wp:post_date") ? `${fields.get("wp:post_date")!.replace(" ", "T")}Z` : undefined,
  ];
  for (const candidate of candidates) {
    if (!candidate || candidate.startsWith("0000")) continue;
    const time = Date.parse(candidate);
    // WordPress writes year -0001 or 0000 for "no date"; anything before 1900 is one of those.
    if (!Number.isNaN(time) && time >= EARLIEST_DATE && time < LATEST_DATE) return new Date(time).toISOString();
  }
  return null;
}

/** The permalink's path (and `/?p=ID`), as the old site answered them; `/` itself never. */
function oldPathsOf(link: string | undefined, postId: string): string[] {
  const paths: string[] = [];
  if (link) {
    try {
      const url = new URL(link);
      const path = withoutTrailingSlashes(url.pathname);
      if (path !== "") paths.push(path);
    } catch {
      // A link that is no URL leads nowhere to keep.
    }
  }
  if (/^\d{1,19}$/.test(postId)) paths.push(`/?p=${postId}`);
  return paths;
}

function toSourcePost(item: RawItem, channel: Channel): SourcePost | undefined {
  const { fields, categories, meta } = item;
  if (fields.get("wp:post_type") !== "post") {
    if (fields.get("wp:post_type") !== "page") return undefined;
  }
  const status = fields.get("wp:status") ?? "";
  const postId = fields.get("wp:post_id") ?? "";
  const title = bounded(fields.get("title") ?? "");
  const post: SourcePost = {
    sourceKey: `wordpress:${channel.siteUrl ?? ""}:${postId}`,
    title,
    slug: fields.get("wp:post_name") ?? "",
    excerpt: fields.get("excerpt:encoded") ?? "",
    html: item.htmlTooLong ? "" : (fields.get("content:encoded") ?? ""),
    author: channel.authors.get(fields.get("dc:creator") ?? "") || (fields.get("dc:creator") ?? ""),
    category: categories[0]
      ? {
          name: categories[0].name,
          oldPath: categories[0].nicename ? `/category/${categories[0].nicename}` : null,
        }
      : null,
    state: STATES[status] ?? "draft",
    publishDate: dateOf(fields),
    oldPaths: oldPathsOf(fields.get("link"), postId),
    featureImage: channel.attachments.get(meta.get("_thumbnail_id") ?? "") ?? null,
    siteUrl: channel.siteUrl,
  };
  if (fields.get("wp:post_type") === "page") post.skip = "a WordPress page: only posts are imported";
  else if (postId === "") post.skip = "it has no post id (wp:post_id)";
  else if (status === "trash") post.skip = "it is in WordPress's trash";
  else if (status === "auto-draft" || status === "inherit") return undefined;
  else if (item.htmlTooLong)
    post.skip = `its body is longer than ${IMPORT_LIMITS.htmlChars.toLocaleString("en-US")} characters`;
  return post;
}

/** The number of posts in the file, and then each post (and page, skipped), in file order. */
export async function readWordPress(
  read: ReadFile,
): Promise<{ total: number; posts: () => AsyncGenerator<SourcePost> }> {
  const channel = await readChannel(read);
  async function* posts(): AsyncGenerator<SourcePost> {
    let count = 0;
    for await (const event of events(read)) {
      if (event.kind !== "item") continue;
      const post = toSourcePost(event.item, channel);
      if (!post) continue;
      if (++count > IMPORT_LIMITS.items) return;
      yield post;
    }
  }
  return { total: Math.min(channel.posts, IMPORT_LIMITS.items), posts };
}
