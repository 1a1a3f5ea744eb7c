import { configContext } from "~/server/platform/context.server";
import { buildRobots, cacheableText } from "~/server/posts/index.server";
import type { Route } from "./+types/robots.txt";

export function loader({ request, context }: Route.LoaderArgs) {
  const { company, siteUrl } = context.get(configContext);
  return cacheableText(
    request,
    buildRobots({ siteUrl, companyName: company.name }),
    "text/plain; charset=utf-8",
    "public, max-age=3600",
  );
}
