/** The template every deployment renders (deploy/nginx/ojai-site.conf.template). */
export const TEMPLATE: string;

/** Renders the nginx site file for one deployment (see render-nginx-site.mjs). */
export function renderNginxSite(options: {
  siteUrl: string;
  apps: string[];
  certificate?: string;
  certificateKey?: string;
  httpPort?: number;
  listenAddress?: string;
  cacheDir?: string;
  acmeRoot?: string;
  accessLogs?: Array<{ file: string; format?: string }>;
  rateLimitExempt?: string[];
}): string;

/** The site's access log when no other is given. */
export const DEFAULT_ACCESS_LOG: string;
