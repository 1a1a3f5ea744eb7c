import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import { createIsbotFromList, list as botPatterns } from "isbot";
import { isWellFormedSlug } from "~/lib/slug";
import { hasSessionCookie } from "../identity/index.server";
import { hostOf, printable } from "../platform/request-text.server";

/**
 * What makes a request a view, and what a view is counted under (ADR 056):
 * its page, its source, its campaign and its device. Plain header checks and
 * substring tests, on bounded text: this runs on every page answer, cache
 * hits included, so nothing here touches the database.
 */

export const OTHER = "(other)";
export const DIRECT = "direct";
export const UNKNOWN = "(unknown)";

export const VIEW_LIMITS = {
  /** Characters of a page path kept. */
  path: 300,
  /** Characters of a source (a host name is at most 253) or a campaign kept. */
  source: 253,
  campaign: 100,
  /** Characters of a User-Agent looked at. */
  userAgent: 512,
} as const;

type Device = "desktop" | "phone" | "tablet";

export interface View {
  /** The page's path: /blog?article={slug} is the article's /blog/{slug}. */
  path: string;
  /** The referring host, the utm_source, "direct", or null for a move within the site. */
  source: string | null;
  campaign: string | null;
  device: Device;
}

/**
 * isbot's crawlers and link-preview fetchers, less its "headless" pattern: a
 * headless browser shows the page like any other (the site's own browser
 * tests run one), and the crawlers that render with one name themselves
 * (Googlebot, bingbot, ...), which the rest of the list catches.
 */
const matchesCrawler = createIsbotFromList(botPatterns.filter((pattern) => pattern.toLowerCase() !== "headless"));

/** What a User-Agent says: a crawler or not, and its device class. */
interface AgentFacts {
  crawler: boolean;
  device: Device;
}

/**
 * What each User-Agent says, kept: isbot's pattern is a few hundred
 * alternatives (~3 µs a test), and the same few browsers ask for most pages.
 * Emptied when full, so a flood of made-up User-Agents costs what it did
 * before.
 */
const agentFacts = new Map<string, AgentFacts>();
const AGENT_FACTS = 500;

/** The facts of a User-Agent (its first VIEW_LIMITS.userAgent characters). */
export function agentFactsOf(userAgent: string): AgentFacts {
  const agent = userAgent.slice(0, VIEW_LIMITS.userAgent);
  let facts = agentFacts.get(agent);
  if (facts === undefined) {
    facts = { crawler: matchesCrawler(agent), device: agentDevice(agent) };
    if (agentFacts.size >= AGENT_FACTS) agentFacts.clear();
    agentFacts.set(agent, facts);
  }
  return facts;
}

const PREFETCH_HEADERS = ["sec-purpose", "purpose", "x-purpose", "x-moz"] as const;

/**
 * Whether a GET may be a view, decided from its headers before it is
 * answered: a browser asking for a document to show (not a prefetch, a
 * crawler, a script or a signed-in administrator).
 */
export function mayBeView(headers: IncomingHttpHeaders): boolean {
  const accept = headers.accept;
  if (!accept || !accept.includes("text/html")) return false;
  for (const name of PREFETCH_HEADERS) {
    const value = headers[name];
    if (typeof value === "string" && (value.includes("prefetch") || value.includes("preview"))) return false;
  }
  const destination = headers["sec-fetch-dest"];
  if (destination !== undefined && destination !== "document") return false;
  const userAgent = headers["user-agent"];
  if (!userAgent || agentFactsOf(userAgent).crawler) return false;
  return !hasSessionCookie(headers.cookie);
}

/** Whether an answer is a public page shown: 200 or 304, HTML, `Cache-Control: public` (the 404 page, previews and the admin are not). */
export function isPageAnswer(res: ServerResponse): boolean {
  if (res.statusCode !== 200 && res.statusCode !== 304) return false;
  const type = res.getHeader("content-type");
  if (typeof type !== "string" || !type.startsWith("text/html")) return false;
  return String(res.getHeader("cache-control") ?? "").includes("public");
}

/** A parameter's value as counted: no control characters, trimmed, cut; empty is none. */
function cleanValue(value: string | null, max: number): string | null {
  if (value === null) return null;
  let out = "";
  for (const char of value.slice(0, max * 2)) {
    const code = char.charCodeAt(0);
    if (code >= 0x20 && code !== 0x7f && !(code >= 0xd800 && code <= 0xdfff)) out += char;
  }
  out = out.trim().slice(0, max);
  return out === "" ? null : out;
}

/** The host name of a URL (a Referer), lower case; null for none or one that does not parse. */
export const hostOfUrl = (url: string | undefined): string | null => hostOf(url, VIEW_LIMITS.source);

/** The host name a Host header names, without its port. */
export function requestHostOf(host: string | undefined): string | null {
  return host ? hostOfUrl(`http://${host}/`) : null;
}

/** The page a path and query show: the in-place article on /blog counts as its own page. */
export function pagePathOf(path: string, params: URLSearchParams | undefined): string {
  if (path === "/blog" && params) {
    const article = params.get("article");
    if (article !== null && isWellFormedSlug(article)) return `/blog/${article}`.slice(0, VIEW_LIMITS.path);
  }
  return printable(path.slice(0, VIEW_LIMITS.path)).slice(0, VIEW_LIMITS.path);
}

/** A device class from a User-Agent: substring checks on its first 300 characters, no pattern to backtrack. */
function agentDevice(userAgent: string): Device {
  const head = userAgent.slice(0, 300);
  if (head.includes("iPad") || head.includes("Tablet") || (head.includes("Android") && !head.includes("Mobile"))) {
    return "tablet";
  }
  return head.includes("Mobi") || head.includes("iPhone") || head.includes("Android") ? "phone" : "desktop";
}

/** A device class from the client hint, else the User-Agent. */
function deviceOf(headers: IncomingHttpHeaders): Device {
  if (headers["sec-ch-ua-mobile"] === "?1") return "phone";
  return agentFactsOf(headers["user-agent"] ?? "").device;
}

/**
 * Where a view came from: the address's utm_source; else the Referer's host
 * when it is another site's; else "direct" (typed, a bookmark, an app, or a
 * site whose links send no Referer). A move within the site (a Referer of
 * this host, or `Sec-Fetch-Site: same-origin`) has no source.
 */
function sourceOf(
  params: URLSearchParams | undefined,
  headers: IncomingHttpHeaders,
  siteHost: string | null,
): string | null {
  const utm = cleanValue(params?.get("utm_source") ?? null, VIEW_LIMITS.source);
  if (utm) return utm;
  const referrer = hostOfUrl(headers.referer);
  if (referrer) return referrer === siteHost || referrer === requestHostOf(headers.host) ? null : referrer;
  return headers["sec-fetch-site"] === "same-origin" ? null : DIRECT;
}

/** A view's page, source, campaign and device, from its URL (path and query as sent) and headers. */
export function describeView(url: string, headers: IncomingHttpHeaders, siteHost: string | null): View {
  const query = url.indexOf("?");
  const path = query === -1 ? url : url.slice(0, query);
  const params = query === -1 ? undefined : new URLSearchParams(url.slice(query + 1));
  return {
    path: pagePathOf(path, params),
    source: sourceOf(params, headers, siteHost),
    campaign: cleanValue(params?.get("utm_campaign") ?? null, VIEW_LIMITS.campaign),
    device: deviceOf(headers),
  };
}
