import { data, type MetaDescriptor } from "react-router";
import { confirmPage } from "~/content/newsletter";
import { islandsPage } from "~/islands/page";
import { PREVIEW_HEADERS } from "~/lib/share-links";
import { confirmationState, confirmSubscription, subscriberIdOf } from "~/server/newsletter/index.server";
import { dbContext } from "~/server/platform/context.server";
import { methodNotAllowed } from "~/server/platform/http.server";
import { siteSettingsFor } from "~/server/settings/index.server";
import { buttonClass, linkClass, SignedLinkPage } from "../signed-link-page";
import type { Route } from "./+types/route";

/**
 * /newsletter/confirm/{token} (ADR 072), the link of a confirmation e-mail:
 * opening it changes nothing (mail scanners and link previews follow GET
 * links) and shows a button; the button's POST confirms. The token is the
 * only key: kept by no cache, indexed by no search engine, never sent on as
 * a referrer. An unknown or forged token is a 404 with its own words.
 */
export const handle = islandsPage;

export function headers() {
  return PREVIEW_HEADERS;
}

type State = "ready" | "confirmed" | "already" | "expired" | "unsubscribed" | "not-found";

async function company(request: Request) {
  const { companyName, socialUrls } = await siteSettingsFor(request);
  return { name: companyName, socialUrls };
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const id = await subscriberIdOf("confirm", params.token);
  const state: State = id ? await confirmationState(context.get(dbContext), id) : "not-found";
  return data({ state, company: await company(request) }, { status: state === "not-found" ? 404 : 200 });
}

export async function action({ params, request, context }: Route.ActionArgs) {
  if (request.method !== "POST") throw methodNotAllowed(["GET", "POST"]);
  const id = await subscriberIdOf("confirm", params.token);
  const state: State = id ? await confirmSubscription(context.get(dbContext), id) : "not-found";
  return data({ state }, { status: state === "not-found" ? 404 : 200 });
}

export function meta({ data }: Route.MetaArgs): MetaDescriptor[] {
  return [
    { title: data ? `${confirmPage.title} | ${data.company.name}` : confirmPage.title },
    { name: "robots", content: "noindex, nofollow" },
    { name: "referrer", content: "no-referrer" },
  ];
}

export default function Confirm({ loaderData, actionData }: Route.ComponentProps) {
  const { company } = loaderData;
  const state = actionData?.state ?? loaderData.state;
  return (
    <SignedLinkPage company={company}>
      {state === "ready" ? (
        <>
          <h1 className="text-4xl font-bold">{confirmPage.heading}</h1>
          <p className="mt-4 text-lg text-neutral-800">{confirmPage.text(company.name)}</p>
          <form method="post" className="mt-6">
            <button type="submit" className={buttonClass}>
              {confirmPage.button}
            </button>
          </form>
        </>
      ) : state === "confirmed" || state === "already" ? (
        <div role="status">
          <h1 className="text-4xl font-bold">{confirmPage.done}</h1>
          <p className="mt-4 text-lg text-neutral-800">
            {state === "confirmed" ? confirmPage.doneText(company.name) : confirmPage.already}
          </p>
        </div>
      ) : (
        <>
          <h1 className="text-4xl font-bold">
            {state === "expired"
              ? confirmPage.expired
              : state === "unsubscribed"
                ? confirmPage.unsubscribedHeading
                : confirmPage.notFound}
          </h1>
          <p className="mt-4 text-lg text-neutral-800">
            {state === "expired"
              ? confirmPage.expiredText
              : state === "unsubscribed"
                ? confirmPage.unsubscribed
                : confirmPage.notFoundText}
          </p>
          <p className="mt-6">
            <a href="/newsletter" className={linkClass}>
              {confirmPage.signUp}
            </a>
          </p>
        </>
      )}
    </SignedLinkPage>
  );
}
