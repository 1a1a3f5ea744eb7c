#!/usr/bin/env node
// Renders deploy/nginx/ojai-site.conf.template into an nginx site file for one
// deployment (docs/deploy.md). The test suite renders the same template with
// its own ports, certificate and folders (tests/integration/deploy.test.ts), so
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
  --acme-root DIR           ACME challenge folder (default /var/www/ojai-site-acme)`;

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
      }),
    );
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
