import { getConfig } from "~/server/platform/config.server";
import { buildRobots, cacheableText } from "~/server/posts/index.server";
import type { Route } from "./+types/robots.txt";

export function loader({ request }: Route.LoaderArgs) {
  const { company, siteUrl } = getConfig();
  return cacheableText(
    request,
    buildRobots({ siteUrl, companyName: company.name }),
    "text/plain; charset=utf-8",
    "public, max-age=3600",
  );
}
