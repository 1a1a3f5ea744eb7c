import { jsonParser, type Token, type TokenSource } from "stream-json/core/parser.js";
import {
  bounded,
  IMPORT_LIMITS,
  ImportFileError,
  type ReadFile,
  type SourcePost,
  type SourceState,
  withoutTrailingSlashes,
} from "./source.server";

/**
 * Reads a Ghost export (JSON) as SourcePosts (ADR 074). An export is one
 * JSON object of up to 80 MB whose tables come in any order, and one string
 * in it (a post's HTML, a mobiledoc in a table we ignore) can be larger than
 * what a server should hold. So nothing here parses the file whole: it walks
 * stream-json's token stream, with strings arriving in pieces, keeps only the
 * fields it needs from the rows of the tables it needs, each cut to its
 * bound, and skips everything else unassembled. The first pass keeps the
 * small tables (tags, authors, image alts) a post refers to; the second
 * yields the posts, in file order, one at a time.
 */

/** What a Ghost export's HTML says where the site's own address belongs. */
const GHOST_URL = "__GHOST_URL__";
/**
 * Bytes handed to the parser at once: a kept text pins at most the parser's
 * buffer of this size, and a parse error is placed within it.
 */
const FEED_BYTES = 4_096;
/** Characters kept of a key, an id or a short word (status, type, visibility). */
const KEY_CHARS = 100;
/** Characters kept of a number: more is no sort order or date Ghost writes. */
const NUMBER_CHARS = 40;
/** One more than a post may have, to tell a body that is too long. */
const HTML_CHARS = IMPORT_LIMITS.htmlChars + 1;
const TEXT_CHARS = IMPORT_LIMITS.textChars;

const NOT_GHOST = "This is not a Ghost export: it has no posts table";
const NOT_JSON = "The file is not valid JSON";

type Scalar = string | number | boolean | null;
/** A table's row, with only the fields asked for. */
type Row = Map<string, Scalar>;
/** Per field kept, the characters kept of its value. */
type Fields = ReadonlyMap<string, number>;
/** Per table read, its fields kept. */
type Tables = ReadonlyMap<string, Fields>;

const fields = (spec: Record<string, number>): Fields => new Map(Object.entries(spec));

const FIRST_PASS: Tables = new Map([
  ["tags", fields({ id: KEY_CHARS, name: TEXT_CHARS, slug: TEXT_CHARS, visibility: KEY_CHARS })],
  ["posts_tags", fields({ post_id: KEY_CHARS, tag_id: KEY_CHARS, sort_order: NUMBER_CHARS })],
  ["users", fields({ id: KEY_CHARS, name: TEXT_CHARS })],
  ["posts_authors", fields({ post_id: KEY_CHARS, author_id: KEY_CHARS, sort_order: NUMBER_CHARS })],
  ["posts_meta", fields({ post_id: KEY_CHARS, feature_image_alt: TEXT_CHARS })],
]);

const SECOND_PASS: Tables = new Map([
  [
    "posts",
    fields({
      id: KEY_CHARS,
      title: TEXT_CHARS,
      slug: TEXT_CHARS,
      custom_excerpt: TEXT_CHARS,
      html: HTML_CHARS,
      status: KEY_CHARS,
      type: KEY_CHARS,
      page: KEY_CHARS,
      published_at: TEXT_CHARS,
      feature_image: TEXT_CHARS,
      author_id: KEY_CHARS,
    }),
  ],
]);

/**
 * The posts (and pages, as skipped items) of a Ghost export, in file order.
 * Reads the file twice. Throws ImportFileError before yielding anything when
 * the file is not JSON or not a Ghost export. Past IMPORT_LIMITS.items
 * items it stops: the rest of the file is not read.
 */
export async function* readGhost(read: ReadFile, options: { siteUrl: string | null }): AsyncGenerator<SourcePost> {
  const lookups = await firstPass(read);
  const tokens = new Tokens(read);
  try {
    let count = 0;
    for await (const { row } of rowsOf(tokens, SECOND_PASS, new Set())) {
      yield sourcePostOf(row, lookups, options.siteUrl);
      if (++count >= IMPORT_LIMITS.items) return;
    }
  } finally {
    await tokens.close();
  }
}

/** Reads the whole file once: it checks it is JSON and a Ghost export, and keeps what posts refer to. */
async function firstPass(read: ReadFile): Promise<Lookups> {
  const lookups = new Lookups();
  const found = new Set<string>();
  const tokens = new Tokens(read);
  try {
    for await (const { table, row } of rowsOf(tokens, FIRST_PASS, found)) lookups.add(table, row);
    await tokens.end();
  } finally {
    await tokens.close();
  }
  if (!found.has("posts")) throw new ImportFileError(NOT_GHOST);
  return lookups;
}

// ---------------------------------------------------------------------------
// Tokens: the parser's output, pulled as the walk needs it.

/** The file's tokens, in batches of one feed each, parse errors said as the owner reads them. */
async function* tokenBatches(read: ReadFile): AsyncGenerator<Token[]> {
  // Unpacked: the parser assembles no string, key or number, however long.
  const parse = jsonParser({ packValues: false });
  const decoder = new TextDecoder();
  let offset = 0;
  for await (const chunk of read()) {
    for (let at = 0; at < chunk.length; at += FEED_BYTES) {
      const piece = chunk.subarray(at, at + FEED_BYTES);
      offset += piece.length;
      const batch = parsed(parse, decoder.decode(piece, { stream: true }), offset);
      if (batch.length > 0) yield batch;
    }
  }
  const batch = parsed(parse, decoder.decode(), offset);
  if (batch.length > 0) yield batch;
}

function parsed(parse: TokenSource, text: string, offset: number): Token[] {
  if (text === "") return [];
  let result;
  try {
    result = parse(text);
  } catch {
    throw new ImportFileError(`${NOT_JSON} (near byte ${offset.toLocaleString("en-US")})`);
  }
  return typeof result === "symbol" ? [] : result.values;
}

/** A cursor over the file's tokens, with the few reads the walk makes of them. */
class Tokens {
  private readonly source: AsyncGenerator<Token[]>;
  private batch: Token[] = [];
  private at = 0;
  private seen = false;

  constructor(read: ReadFile) {
    this.source = tokenBatches(read);
  }

  async next(): Promise<Token> {
    while (this.at >= this.batch.length) await this.refill();
    return this.batch[this.at++]!;
  }

  /** The next key of the object being read, or null at its end. */
  async key(): Promise<string | null> {
    const token = await this.next();
    if (token.name === "endObject") return null;
    if (token.name !== "startKey") throw new ImportFileError(NOT_JSON);
    return this.text(KEY_CHARS);
  }

  /** A value whose first token is `first`: strings cut to `max` characters, undefined for an object or array (skipped). */
  async scalar(first: Token, max: number): Promise<Scalar | undefined> {
    switch (first.name) {
      case "startString":
        return this.text(max);
      case "startNumber":
        return Number(await this.text(NUMBER_CHARS));
      case "nullValue":
      case "trueValue":
      case "falseValue":
        return first.value;
      default:
        await this.skip(first);
        return undefined;
    }
  }

  /** The rest of a string, key or number just started, cut to `max` characters; the rest is read and dropped. */
  async text(max: number): Promise<string> {
    const parts: string[] = [];
    let length = 0;
    for (;;) {
      while (this.at < this.batch.length) {
        const token = this.batch[this.at++]!;
        if (token.name !== "stringChunk" && token.name !== "numberChunk") return parts.join("");
        if (length < max) {
          const part = token.value.length > max - length ? token.value.slice(0, max - length) : token.value;
          parts.push(part);
          length += part.length;
        }
      }
      await this.refill();
    }
  }

  /** Reads past the rest of a value whose first token is `first`, keeping nothing of it. */
  async skip(first: Token): Promise<void> {
    if (first.name === "startString" || first.name === "startNumber") {
      await this.text(0);
      return;
    }
    let depth = first.name === "startObject" || first.name === "startArray" ? 1 : 0;
    while (depth > 0) {
      while (depth > 0 && this.at < this.batch.length) {
        const name = this.batch[this.at++]!.name;
        if (name === "startObject" || name === "startArray") depth++;
        else if (name === "endObject" || name === "endArray") depth--;
      }
      if (depth > 0) await this.refill();
    }
  }

  /** Reads to the end of the file, so that anything after the export's object is a parse error. */
  async end(): Promise<void> {
    for (;;) {
      const result = await this.source.next();
      if (result.done) return;
      if (result.value.length > 0) throw new ImportFileError(NOT_JSON);
    }
  }

  async close(): Promise<void> {
    await this.source.return(undefined);
  }

  private async refill(): Promise<void> {
    const result = await this.source.next();
    if (result.done) {
      throw new ImportFileError(this.seen ? `${NOT_JSON}: it ends before the export does` : `${NOT_JSON}: it is empty`);
    }
    this.batch = result.value;
    this.at = 0;
    this.seen = true;
  }
}

// ---------------------------------------------------------------------------
// The walk: `{"db": [{"meta": …, "data": {table: [row, …], …}}]}`, or the
// export object itself at the root (older Ghost).

interface TableRow {
  table: string;
  row: Row;
}

/** The rows of `tables`, in file order; adds to `found` every table met (as an array), read or not. */
async function* rowsOf(tokens: Tokens, tables: Tables, found: Set<string>): AsyncGenerator<TableRow> {
  const first = await tokens.next();
  if (first.name !== "startObject") throw new ImportFileError(NOT_GHOST);
  yield* exportRows(tokens, tables, found, true);
}

/** The rows in an export object (`meta`, `data`) just started; the root may hold `db`, a list of them. */
async function* exportRows(
  tokens: Tokens,
  tables: Tables,
  found: Set<string>,
  root: boolean,
): AsyncGenerator<TableRow> {
  for (let key = await tokens.key(); key !== null; key = await tokens.key()) {
    const first = await tokens.next();
    if (key === "data" && first.name === "startObject") yield* dataRows(tokens, tables, found);
    else if (key === "db" && root && first.name === "startArray") yield* dbRows(tokens, tables, found);
    else await tokens.skip(first);
  }
}

async function* dbRows(tokens: Tokens, tables: Tables, found: Set<string>): AsyncGenerator<TableRow> {
  for (let first = await tokens.next(); first.name !== "endArray"; first = await tokens.next()) {
    if (first.name === "startObject") yield* exportRows(tokens, tables, found, false);
    else await tokens.skip(first);
  }
}

async function* dataRows(tokens: Tokens, tables: Tables, found: Set<string>): AsyncGenerator<TableRow> {
  for (let table = await tokens.key(); table !== null; table = await tokens.key()) {
    const first = await tokens.next();
    const kept = tables.get(table);
    if (first.name === "startArray") found.add(table);
    if (kept && first.name === "startArray") yield* tableRows(tokens, table, kept);
    else await tokens.skip(first);
  }
}

async function* tableRows(tokens: Tokens, table: string, kept: Fields): AsyncGenerator<TableRow> {
  for (let first = await tokens.next(); first.name !== "endArray"; first = await tokens.next()) {
    if (first.name === "startObject") yield { table, row: await readRow(tokens, kept) };
    else await tokens.skip(first);
  }
}

/** A row object just started, with only the fields kept (nested values skipped). */
async function readRow(tokens: Tokens, kept: Fields): Promise<Row> {
  const row: Row = new Map();
  for (let key = await tokens.key(); key !== null; key = await tokens.key()) {
    const max = kept.get(key);
    const first = await tokens.next();
    if (max === undefined) {
      await tokens.skip(first);
      continue;
    }
    const value = await tokens.scalar(first, max);
    if (value !== undefined) row.set(key, value);
  }
  return row;
}

// ---------------------------------------------------------------------------
// The first pass: what posts refer to, each map bounded by IMPORT_LIMITS.names.

interface Tag {
  name: string;
  slug: string;
  visibility: string;
}

/** A post's tag or author, and its place among the post's. */
interface Link {
  id: string;
  order: number;
}

const textOf = (value: Scalar | undefined): string => (typeof value === "string" ? value : "");

/** An id as Ghost writes it: a string, or a number in older exports. */
function idOf(value: Scalar | undefined): string | null {
  if (typeof value === "string" && value !== "") return value;
  return typeof value === "number" ? String(value) : null;
}

const orderOf = (value: Scalar | undefined): number => (typeof value === "number" && !Number.isNaN(value) ? value : 0);

class Lookups {
  readonly tags = new Map<string, Tag>();
  readonly users = new Map<string, string>();
  readonly alts = new Map<string, string>();
  /** Per post, its tags in file order (sorted when read). */
  readonly postTags = new Map<string, Link[]>();
  /** Per post, its first author so far. */
  readonly postAuthors = new Map<string, Link>();
  private links = 0;

  add(table: string, row: Row): void {
    if (table === "tags") this.addTag(row);
    else if (table === "posts_tags") this.addPostTag(row);
    else if (table === "posts_authors") this.addPostAuthor(row);
    else if (table === "users") this.keep(this.users, idOf(row.get("id")), bounded(textOf(row.get("name"))));
    else if (table === "posts_meta") {
      this.keep(this.alts, idOf(row.get("post_id")), bounded(textOf(row.get("feature_image_alt"))));
    }
  }

  private addTag(row: Row): void {
    this.keep(this.tags, idOf(row.get("id")), {
      name: bounded(textOf(row.get("name"))),
      slug: bounded(textOf(row.get("slug"))),
      visibility: textOf(row.get("visibility")),
    });
  }

  private addPostTag(row: Row): void {
    const post = idOf(row.get("post_id"));
    const id = idOf(row.get("tag_id"));
    if (post === null || id === null || this.links >= IMPORT_LIMITS.names) return;
    this.links++;
    const list = this.postTags.get(post) ?? [];
    list.push({ id, order: orderOf(row.get("sort_order")) });
    this.postTags.set(post, list);
  }

  private addPostAuthor(row: Row): void {
    const post = idOf(row.get("post_id"));
    const id = idOf(row.get("author_id"));
    const order = orderOf(row.get("sort_order"));
    const first = post === null ? undefined : this.postAuthors.get(post);
    if (id !== null && (first === undefined || order < first.order)) this.keep(this.postAuthors, post, { id, order });
  }

  /** Sets `key` unless the map is full (a key already in it is replaced). */
  private keep<T>(map: Map<string, T>, key: string | null, value: T): void {
    if (key !== null && (map.size < IMPORT_LIMITS.names || map.has(key))) map.set(key, value);
  }
}

// ---------------------------------------------------------------------------
// The second pass: a post's row as a SourcePost.

function sourcePostOf(row: Row, lookups: Lookups, siteUrl: string | null): SourcePost {
  const id = idOf(row.get("id")) ?? "";
  const slug = bounded(textOf(row.get("slug")));
  const state = stateOf(textOf(row.get("status")));
  const html = row.get("html");
  const skip = skipOf(row, id, html);
  const base = siteUrl ? withoutTrailingSlashes(siteUrl) : null;
  return {
    sourceKey: `ghost:${id}`,
    title: bounded(textOf(row.get("title"))),
    slug,
    excerpt: bounded(textOf(row.get("custom_excerpt"))),
    html: skip === undefined && typeof html === "string" ? withSiteUrl(html, base) : "",
    author: authorOf(id, row, lookups),
    category: categoryOf(id, lookups),
    state,
    publishDate: dateOf(row.get("published_at")),
    oldPaths: state === "published" && slug !== "" ? [`/${slug}`] : [],
    featureImage: featureImageOf(row, id, lookups, base),
    siteUrl,
    ...(skip === undefined ? {} : { skip }),
  };
}

/** Why a post is not imported, or undefined. */
function skipOf(row: Row, id: string, html: Scalar | undefined): string | undefined {
  if (row.get("type") === "page" || row.get("page") === true) return "a Ghost page: only posts are imported";
  if (id === "") return "has no id in the export";
  if (typeof html !== "string") return "has no HTML in the export (re-export from Ghost 5 or later)";
  if (html.length > IMPORT_LIMITS.htmlChars) {
    return `its body is longer than ${IMPORT_LIMITS.htmlChars.toLocaleString("en-US")} characters`;
  }
  return undefined;
}

/** Ghost's `sent` is a post sent by email only: kept as a draft. */
function stateOf(status: string): SourceState {
  if (status === "published") return "published";
  return status === "scheduled" ? "scheduled" : "draft";
}

function dateOf(value: Scalar | undefined): string | null {
  if (typeof value !== "string" && typeof value !== "number") return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The post's first author, else the one its own row names, else "". */
function authorOf(id: string, row: Row, lookups: Lookups): string {
  const first = lookups.postAuthors.get(id);
  const name = first === undefined ? undefined : lookups.users.get(first.id);
  return name ?? lookups.users.get(idOf(row.get("author_id")) ?? "") ?? "";
}

/** The post's primary tag: its first public one (internal tags are named `#…`). */
function categoryOf(id: string, lookups: Lookups): SourcePost["category"] {
  const links = [...(lookups.postTags.get(id) ?? [])].sort((a, b) => a.order - b.order);
  for (const link of links) {
    const tag = lookups.tags.get(link.id);
    if (tag === undefined || tag.visibility === "internal" || tag.name === "" || tag.name.startsWith("#")) continue;
    return { name: tag.name, oldPath: tag.slug === "" ? null : `/tag/${tag.slug}` };
  }
  return null;
}

function featureImageOf(row: Row, id: string, lookups: Lookups, base: string | null): SourcePost["featureImage"] {
  const url = textOf(row.get("feature_image"));
  if (url === "") return null;
  const absolute = base !== null && url.startsWith(GHOST_URL) ? base + url.slice(GHOST_URL.length) : url;
  return { url: bounded(absolute), alt: lookups.alts.get(id) ?? "" };
}

function withSiteUrl(html: string, base: string | null): string {
  return base === null ? html : html.replaceAll(GHOST_URL, () => base);
}
