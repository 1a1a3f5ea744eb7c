import type { IncomingMessage, ServerResponse } from "node:http";
import { isWordPressIdPath, REDIRECT_LIMITS, reservedPathMessage, withoutTrailingSlash } from "~/lib/redirects";

/**
 * Answers the requests a redirect covers, on the bare request before the
 * page cache (server/app.ts, ADR 054): a GET or HEAD whose path has a
 * redirect gets its 301 or 302 and no page is rendered. The redirects are
 * held in a Map loaded whole from the database and loaded again when the
 * content version changes (every redirect write bumps it, in any process):
 * a request costs the version read the page cache makes anyway (shared, see
 * `readVersion`) and one Map lookup. A stored redirect from an address the
 * site answers itself (RESERVED_PATHS, in any spelling) is left out of the
 * Map when it is loaded.
 */

interface Target {
  to: string;
  status: number;
}

interface RedirectLookupOptions {
  /** The content version for this request (one read per request, shared with the page cache). */
  readVersion: (req: IncomingMessage) => Promise<string>;
  /** Every redirect, to load the Map from. */
  load: () => Promise<Array<{ from: string; to: string; status: number }>>;
  logger?: { error(fields: object, message: string): void };
}

/** The path of a request URL (what follows is the query, carried to a target that has none). */
function splitUrl(url: string): [path: string, query: string] {
  const mark = url.indexOf("?");
  return mark === -1 ? [url, ""] : [url.slice(0, mark), url.slice(mark)];
}

export function redirectLookup({ readVersion, load, logger }: RedirectLookupOptions) {
  let loaded: { version: string; targets: Map<string, Target> } | undefined;
  /** One load at a time per version: a burst after a write waits for the same one. */
  let loading: { version: string; done: Promise<Map<string, Target>> } | undefined;
  /**
   * Whether each stored `from` may be answered, kept from one load to the next: the check
   * costs about a microsecond a path, and 10,000 paths are loaded again after every change.
   */
  let answerable = new Map<string, boolean>();

  function targetsAt(version: string): Map<string, Target> | Promise<Map<string, Target>> {
    if (loaded?.version === version) return loaded.targets;
    if (loading?.version !== version) {
      const done = load().then((rows) => {
        const targets = new Map<string, Target>();
        const checked = new Map<string, boolean>();
        for (const row of rows) {
          // A row saved before the target check resolved dot segments may lead to //host: never sent.
          // One from an address the site answers itself (/admin.data, saved before that rule or
          // copied in) is never answered: the site's own answer wins (ADR 054). `/?p=123` routes
          // to `/` but is WordPress's address of a post, kept by an import (ADR 074): answered.
          const mayAnswer =
            answerable.get(row.from) ?? (isWordPressIdPath(row.from) || reservedPathMessage(row.from) === undefined);
          checked.set(row.from, mayAnswer);
          if (mayAnswer && !row.to.startsWith("//")) targets.set(row.from, { to: row.to, status: row.status });
        }
        answerable = checked;
        if (loading?.done === done) {
          loaded = { version, targets };
          loading = undefined;
        }
        return targets;
      });
      loading = { version, done };
      done.catch(() => {
        if (loading?.done === done) loading = undefined;
      });
    }
    return loading.done;
  }

  function send(req: IncomingMessage, res: ServerResponse, target: Target, query: string) {
    const location = query && !target.to.includes("?") && !target.to.includes("#") ? target.to + query : target.to;
    res.statusCode = target.status === 302 ? 302 : 301;
    res.setHeader("Location", location);
    res.setHeader("Cache-Control", target.status === 302 ? "no-store" : "public, max-age=3600");
    res.setHeader("Content-Length", "0");
    res.end();
  }

  /** Answers a redirected GET or HEAD, or hands the request to `next` (also when the redirects cannot be read). */
  function answerRedirects(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    const { method, url = "" } = req;
    if ((method !== "GET" && method !== "HEAD") || url.length > REDIRECT_LIMITS.from * 4) return next();
    const [rawPath, query] = splitUrl(url);
    const path = withoutTrailingSlash(rawPath);
    // `/` is never redirected; `/?p=123`, WordPress's own address of a post, may be (an import's), and carries no query on.
    if (path === "/") return isWordPressIdPath(`/${query}`) ? answerFrom(req, res, next, `/${query}`, "") : next();
    // The site's own addresses (the admin and its API among them) are never redirected: no load for them.
    if (path.length > REDIRECT_LIMITS.from || reservedPathMessage(path) !== undefined) return next();
    answerFrom(req, res, next, path, query);
  }

  function answerFrom(req: IncomingMessage, res: ServerResponse, next: () => void, path: string, query: string) {
    const find = (targets: Map<string, Target>) => {
      const target = targets.get(path);
      if (target) send(req, res, target, query);
      else next();
    };
    readVersion(req).then(
      (version) => {
        const targets = targetsAt(version);
        if (targets instanceof Map) return find(targets);
        targets.then(find, (error: unknown) => {
          logger?.error({ err: error }, "redirects could not be loaded");
          next();
        });
      },
      () => next(),
    );
  }

  return { answerRedirects };
}
