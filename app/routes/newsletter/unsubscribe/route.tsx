import { data, type MetaDescriptor } from "react-router";
import { unsubscribePage } from "~/content/newsletter";
import { islandsPage } from "~/islands/page";
import { PREVIEW_HEADERS } from "~/lib/share-links";
import { findSubscriber, subscriberIdOf, unsubscribe } from "~/server/newsletter/index.server";
import { dbContext } from "~/server/platform/context.server";
import { methodNotAllowed } from "~/server/platform/http.server";
import { siteSettingsFor } from "~/server/settings/index.server";
import { buttonClass, SignedLinkPage } from "../signed-link-page";
import type { Route } from "./+types/route";

/**
 * /newsletter/unsubscribe/{token} (ADR 072): the link in every newsletter
 * e-mail and in its List-Unsubscribe header. Opening it shows a button; a
 * POST unsubscribes at once, the button's or a mail client's one-click
 * (RFC 8058: `List-Unsubscribe=One-Click`, sent with no cookie and no
 * Origin, which the site's cross-origin check lets through). Kept by no
 * cache, indexed by no search engine, never sent on as a referrer.
 */
export const handle = islandsPage;

export function headers() {
  return PREVIEW_HEADERS;
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { companyName, socialUrls } = await siteSettingsFor(request);
  const company = { name: companyName, socialUrls };
  const id = await subscriberIdOf("unsubscribe", params.token);
  const subscriber = id ? await findSubscriber(context.get(dbContext), id) : undefined;
  if (!subscriber) return data({ state: "not-found" as const, company, email: "" }, { status: 404 });
  const state = subscriber.status === "unsubscribed" ? ("done" as const) : ("ready" as const);
  return { state, company, email: subscriber.email };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  if (request.method !== "POST") throw methodNotAllowed(["GET", "POST"]);
  const id = await subscriberIdOf("unsubscribe", params.token);
  const done = id ? await unsubscribe(context.get(dbContext), id) : false;
  return data({ state: done ? ("done" as const) : ("not-found" as const) }, { status: done ? 200 : 404 });
}

export function meta({ data }: Route.MetaArgs): MetaDescriptor[] {
  return [
    { title: data ? `${unsubscribePage.title} | ${data.company.name}` : unsubscribePage.title },
    { name: "robots", content: "noindex, nofollow" },
    { name: "referrer", content: "no-referrer" },
  ];
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const state = actionData?.state ?? loaderData.state;
  return (
    <SignedLinkPage company={loaderData.company}>
      {state === "ready" ? (
        <>
          <h1 className="text-4xl font-bold">{unsubscribePage.heading}</h1>
          <p className="mt-4 text-lg text-neutral-800">{unsubscribePage.text(loaderData.email)}</p>
          <form method="post" className="mt-6">
            <button type="submit" className={buttonClass}>
              {unsubscribePage.button}
            </button>
          </form>
        </>
      ) : state === "done" ? (
        <div role="status">
          <h1 className="text-4xl font-bold">{unsubscribePage.done}</h1>
          <p className="mt-4 text-lg text-neutral-800">{unsubscribePage.doneText}</p>
        </div>
      ) : (
        <>
          <h1 className="text-4xl font-bold">{unsubscribePage.notFound}</h1>
          <p className="mt-4 text-lg text-neutral-800">{unsubscribePage.notFoundText}</p>
        </>
      )}
    </SignedLinkPage>
  );
}
