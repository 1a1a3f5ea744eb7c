import { data } from "react-router";
import { SubscribeForm } from "~/components/site/subscribe-form";
import { newsletterPage, subscribeErrors } from "~/content/newsletter";
import { Island } from "~/islands/island";
import { islandsPage } from "~/islands/page";
import { pageMeta } from "~/lib/seo";
import { subscribe } from "~/server/newsletter/index.server";
import { clientAddressContext, configContext, dbContext } from "~/server/platform/context.server";
import { BODY_LIMITS, formRetryAfter, methodNotAllowed, readFormBody } from "~/server/platform/http.server";
import { siteSettingsFor } from "~/server/settings/index.server";
import type { Route } from "./+types/route";

/**
 * /newsletter (ADR 072): the sign-up page, and where every sign-up form of
 * the site posts (the end of an article, /blog, the footer), so they work
 * without JavaScript. The action runs the newsletter's policy (subscribe)
 * and says the same for every address, or shows the form again with the
 * problem beside the field and the address as typed.
 */
export const handle = islandsPage;

export function headers({ actionHeaders }: Route.HeadersArgs) {
  return { "Cache-Control": "no-store", ...formRetryAfter({ actionHeaders }) };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const settings = await siteSettingsFor(request);
  return {
    company: { name: settings.companyName, socialUrls: settings.socialUrls },
    siteUrl: context.get(configContext).siteUrl,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") throw methodNotAllowed(["GET", "POST"]);
  // Read first, whatever the outcome: a refused visitor gets back what they typed.
  const form = await readFormBody(request, BODY_LIMITS.form);
  const email = (form.get("email") ?? "").slice(0, 400);
  const outcome = await subscribe(context.get(dbContext), request, context.get(clientAddressContext), () =>
    Promise.resolve(form),
  );
  if (outcome.kind === "accepted") return { state: "accepted" as const };
  if (outcome.kind === "throttled")
    return data(
      { state: "refused" as const, email, error: subscribeErrors.throttled },
      { status: 429, headers: { "Retry-After": String(Math.ceil(outcome.retryAfterMs / 1000)) } },
    );
  return data({ state: "refused" as const, email, error: outcome.message }, { status: 400 });
}

export function meta({ data }: Route.MetaArgs) {
  if (!data) return [];
  return pageMeta({
    title: `${newsletterPage.title} | ${data.company.name}`,
    description: newsletterPage.description,
    canonical: `${data.siteUrl}/newsletter`,
  });
}

export default function Newsletter({ loaderData, actionData }: Route.ComponentProps) {
  const { company } = loaderData;
  return (
    <>
      <Island name="site-header" props={{ companyName: company.name }} />
      <main id="main" className="mx-auto w-full max-w-2xl px-4 py-12">
        {actionData?.state === "accepted" ? (
          <div role="status">
            <h1 className="text-4xl font-bold">{newsletterPage.accepted}</h1>
            <p className="mt-4 text-lg text-neutral-800">{newsletterPage.acceptedText}</p>
            <p className="mt-8">
              <a href="/blog" className="font-semibold text-brand-700 underline hover:text-brand-800">
                {newsletterPage.back}
              </a>
            </p>
          </div>
        ) : (
          <>
            <h1 className="text-4xl font-bold">{newsletterPage.heading}</h1>
            <p className="mt-3 text-lg text-neutral-800">{newsletterPage.intro}</p>
            <SubscribeForm
              idPrefix="newsletter"
              heading={false}
              email={actionData?.state === "refused" ? actionData.email : ""}
              error={actionData?.state === "refused" ? actionData.error : undefined}
              className="mt-6"
            />
          </>
        )}
      </main>
      <Island name="site-footer" props={{ companyName: company.name, socialUrls: company.socialUrls }} />
    </>
  );
}
