#!/usr/bin/env node
// Renders deploy/nginx/ojai-site.conf.template into an nginx site file for one
// deployment (docs/deploy.md). The test suite renders the same template with
// its own ports, certificate and folders (tests/integration/deploy.db.test.ts), so
// what is tested is what ships.
//
//   node deploy/render-nginx-site.mjs --site-url https://www.example.com \
//     --app 127.0.0.1:3001 --app 127.0.0.1:3002 > /etc/nginx/sites-available/ojai-site
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

export const TEMPLATE = path.join(import.meta.dirname, "nginx", "ojai-site.conf.template");

/**
 * How nginx judges an app process: one failed attempt (refused, reset, timed
 * out) takes it out of rotation for 2 s, after which one request tries it
 * again. A request that never reached it is passed to the next process.
 */
const PASSIVE_CHECK = "max_fails=1 fail_timeout=2s";

/** The site's access log, in the site file's own format (no tokens, ADR 048). */
export const DEFAULT_ACCESS_LOG = "/var/log/nginx/ojai-site.access.log";

/**
 * A file name nginx reads as one word, and the characters of an address or
 * network (IPv4 or IPv6, optionally /bits; `nginx -t` checks the rest).
 */
const FILE_NAME = /^\/[^\s;'"{}$\\]+$/;
const FORMAT_NAME = /^\w+$/;
const ADDRESS = /^[\da-f.:]+(?:\/\d{1,3})?$/i;

/**
 * @param {{
 *   siteUrl: string,              // the public origin, https://..., as the app's SITE_URL
 *   apps: string[],               // app processes, host:port each
 *   certificate?: string,         // PEM chain; default: the ACME client's path for the site's host
 *   certificateKey?: string,
 *   httpPort?: number,            // default 80
 *   listenAddress?: string,       // default: every IPv4 and IPv6 address
 *   cacheDir?: string,            // nginx's cache of /assets and /images
 *   acmeRoot?: string,            // where an ACME client (certbot --webroot) writes its challenges
 *   accessLogs?: Array<{ file: string, format?: string }>,
 *                                 // default: DEFAULT_ACCESS_LOG in the site's format, ojai_site; another
 *                                 // format must be defined in nginx.conf, and keep URIs and referrers out
 *   rateLimitExempt?: string[],   // addresses or networks never limited (monitoring, a load test)
 * }} options
 * @returns {string} the site file
 */
export function renderNginxSite(options) {
  const site = new URL(options.siteUrl);
  if (site.protocol !== "https:" || site.pathname !== "/" || site.search || site.hash || site.username) {
    throw new Error(`--site-url must be an https origin such as https://www.example.com (got ${options.siteUrl})`);
  }
  if (!options.apps?.length) throw new Error("at least one --app host:port is needed");
  for (const app of options.apps) {
    if (!/^[\w.-]+:\d+$|^\[[\da-f:]+\]:\d+$/i.test(app)) throw new Error(`--app must be host:port (got ${app})`);
  }
  const accessLogs = options.accessLogs ?? [{ file: DEFAULT_ACCESS_LOG }];
  for (const { file, format = "ojai_site" } of accessLogs) {
    if (!FILE_NAME.test(file)) throw new Error(`--access-log must be an absolute file name (got ${file})`);
    if (!FORMAT_NAME.test(format)) throw new Error(`a log format is a name (got ${format})`);
  }
  const exempt = options.rateLimitExempt ?? [];
  for (const address of exempt) {
    if (!ADDRESS.test(address) || !/[.:]/.test(address)) {
      throw new Error(
        `--rate-limit-exempt must be an address or network such as 192.0.2.7 or 2001:db8::/64 (got ${address})`,
      );
    }
  }
  const host = site.hostname;
  const httpsPort = Number(site.port || 443);
  const httpPort = options.httpPort ?? 80;
  const listen = (port, extra = "") =>
    options.listenAddress
      ? `    listen ${options.listenAddress}:${port}${extra};`
      : `    listen ${port}${extra};\n    listen [::]:${port}${extra};`;
  const values = {
    APP_SERVERS: options.apps.map((app) => `    server ${app} ${PASSIVE_CHECK};`).join("\n"),
    CACHE_DIR: options.cacheDir ?? "/var/cache/nginx/ojai-site",
    HTTP_LISTEN: listen(httpPort),
    HTTPS_LISTEN: listen(httpsPort, " ssl http2"),
    SERVER_NAME: host,
    ACME_ROOT: options.acmeRoot ?? "/var/www/ojai-site-acme",
    SITE_URL: site.origin,
    CERTIFICATE: options.certificate ?? `/etc/letsencrypt/live/${host}/fullchain.pem`,
    CERTIFICATE_KEY: options.certificateKey ?? `/etc/letsencrypt/live/${host}/privkey.pem`,
    ACCESS_LOGS: accessLogs.map(({ file, format = "ojai_site" }) => `    access_log ${file} ${format};`).join("\n"),
    RATE_LIMIT_EXEMPT: exempt.map((address) => `    ${address} 1;`).join("\n"),
  };
  const rendered = fs.readFileSync(TEMPLATE, "utf8").replace(/\{\{([A-Z_]+)\}\}/g, (placeholder, name) => {
    if (!(name in values)) throw new Error(`the template names an unknown value ${placeholder}`);
    return values[name];
  });
  return rendered;
}

const usage = `Usage: node deploy/render-nginx-site.mjs --site-url https://HOST [options] > site.conf

  --site-url URL            the public origin (the app's SITE_URL); its port, if any, is the HTTPS port
  --app HOST:PORT           an app process; repeat for each (default 127.0.0.1:3000)
  --certificate FILE        TLS certificate chain (default /etc/letsencrypt/live/HOST/fullchain.pem)
  --certificate-key FILE    its key (default /etc/letsencrypt/live/HOST/privkey.pem)
  --http-port N             plain HTTP port, which redirects to HTTPS (default 80)
  --listen-address ADDR     listen on this address only (default: all IPv4 and IPv6)
  --cache-dir DIR           nginx's cache of /assets and /images (default /var/cache/nginx/ojai-site)
  --acme-root DIR           ACME challenge folder (default /var/www/ojai-site-acme)
  --access-log FILE         the site's access log, which keeps no tokens (default ${DEFAULT_ACCESS_LOG}); repeat for more
  --rate-limit-exempt ADDR  an address or network never rate-limited (your monitoring, a load test); repeat for each`;

if (import.meta.url === `file://${process.argv[1]}`) {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        "site-url": { type: "string" },
        app: { type: "string", multiple: true },
        certificate: { type: "string" },
        "certificate-key": { type: "string" },
        "http-port": { type: "string" },
        "listen-address": { type: "string" },
        "cache-dir": { type: "string" },
        "acme-root": { type: "string" },
        "access-log": { type: "string", multiple: true },
        "rate-limit-exempt": { type: "string", multiple: true },
        help: { type: "boolean" },
      },
    }).values;
  } catch (error) {
    console.error(`${error.message}\n\n${usage}`);
    process.exit(2);
  }
  if (parsed.help || !parsed["site-url"]) {
    console.error(usage);
    process.exit(parsed.help ? 0 : 2);
  }
  try {
    process.stdout.write(
      renderNginxSite({
        siteUrl: parsed["site-url"],
        apps: parsed.app ?? ["127.0.0.1:3000"],
        certificate: parsed.certificate,
        certificateKey: parsed["certificate-key"],
        httpPort: parsed["http-port"] ? Number(parsed["http-port"]) : undefined,
        listenAddress: parsed["listen-address"],
        cacheDir: parsed["cache-dir"],
        acmeRoot: parsed["acme-root"],
        accessLogs: parsed["access-log"]?.map((file) => ({ file })),
        rateLimitExempt: parsed["rate-limit-exempt"],
      }),
    );
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
