import {
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteLoaderData,
} from "react-router";
import { useEffect } from "react";
import type { Route } from "./+types/root";
import "./app.css";
import { SKIP_INTRO_SCRIPT } from "./components/site/intro-script";
import { HOVER_MEDIA } from "./components/ui/tip";
import { Island } from "./islands/island";
import { islandsLoaderData, LOAD_ISLANDS_SCRIPT } from "./islands/load-islands";
import { isIslandsPage, type PageHandle } from "./islands/page";
import { useNonce } from "./lib/nonce";
import { islandAssets } from "./server/platform/islands.server";
import { readAvailability } from "./server/booking/index.server";
import { siteSettingsFor } from "./server/settings/index.server";
import { CONTACT_MESSAGES_ELEMENT_ID, humorousMessages } from "./content/contact";
import { configContext, connectionContext } from "./server/platform/context.server";
import { publishedContent } from "./server/pages/index.server";
import { unavailableWhileDatabaseAway } from "./server/platform/unavailable.server";

/** While the database cannot be reached, a request that met the outage answers 503, not 500 (ADR 075). */
export const middleware: Route.MiddlewareFunction[] = [unavailableWhileDatabaseAway];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { siteUrl } = context.get(configContext);
  const connection = context.get(connectionContext);
  const [{ companyName, socialUrls }, content, { enabled: bookingOpen }] = await Promise.all([
    siteSettingsFor(request),
    publishedContent(connection),
    // The public pages link to /book only while visitors can book.
    readAvailability(connection.db),
  ]);
  // The contact form's sentences go in the page only when the owner changed them (ADR 053).
  const { messages } = content.contact;
  const contactMessages = sameMessages(messages, humorousMessages) ? null : messages;
  return { site: { companyName, socialUrls }, siteUrl, islands: islandAssets, contactMessages, bookingOpen };
}

const sameMessages = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((message, index) => message === b[index]);

/** A JSON array fit to sit in a script element: no "<" to end it early. */
const scriptJson = (value: readonly string[]) => JSON.stringify(value).replaceAll("<", "\\u003c");

export type RootData = Awaited<ReturnType<typeof loader>>;

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const root = useRouteLoaderData<RootData>("root");
  const matches = useMatches();
  const handles = matches.map((match) => (match.handle ?? {}) as PageHandle);
  // Public pages hydrate as islands and load no router (ADR 018); the admin
  // hydrates whole. The same test as app/entry.server.tsx's for the nonce: a
  // public page never gets React Router's inline scripts.
  const islandsPage = isIslandsPage(handles);
  const islands = islandsPage ? root?.islands : undefined;
  const intro = handles.some((handle) => handle.intro);
  // A page's preview carries its draft's sentences (routes/pages.preview.landing.tsx); others, the published ones.
  const pageData = matches.at(-1)?.data as { contactMessages?: string[] } | undefined;
  const contactMessages = islandsPage ? (pageData?.contactMessages ?? root?.contactMessages) : undefined;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1b4d2d" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
        {/* Public pages carry no nonce, so their cached HTML is the same for
            every visitor and is compressed once (ADR 024): their scripts are
            files of this site ('self'), and their inline scripts are allowed
            by hash in the Content-Security-Policy. */}
        {intro && <script dangerouslySetInnerHTML={{ __html: SKIP_INTRO_SCRIPT }} />}
      </head>
      {/* The contact modal, a React root of its own, reads whether to offer /book here. */}
      <body data-booking={root?.bookingOpen ? "open" : undefined}>
        <div className="site-shell">{children}</div>
        {contactMessages && (
          <script
            type="application/json"
            id={CONTACT_MESSAGES_ELEMENT_ID}
            dangerouslySetInnerHTML={{ __html: scriptJson(contactMessages) }}
          />
        )}
        {/* After the page has painted, the islands (ADR 031). */}
        {islands && (
          <script
            {...islandsLoaderData({
              modules: islands.devPreamble ? [islands.devPreamble, islands.entry] : [islands.entry],
              preload: islands.preload,
              hoverPreload: islands.hoverPreload,
              hoverMedia: HOVER_MEDIA,
            })}
            dangerouslySetInnerHTML={{ __html: LOAD_ISLANDS_SCRIPT }}
          />
        )}
        {!islandsPage && (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  // Pages that hydrate whole (the admin) say so as islands pages do (hydrate-islands.tsx).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const site = useRouteLoaderData<RootData>("root")?.site;
  const refused = isRouteErrorResponse(error) && error.status >= 400 && error.status < 500 ? error : undefined;
  const notFound = refused?.status === 404;
  const reason = (refused?.data as { error?: unknown } | undefined)?.error;
  const title = notFound ? "Page not found" : refused ? "Request refused" : "Something went wrong";
  const message = notFound
    ? "The page you asked for does not exist, or is not published yet."
    : refused
      ? typeof reason === "string"
        ? reason
        : "The site could not accept this request."
      : "An unexpected error occurred. Please try again in a moment.";
  // The server logs its errors as JSON (entry.server handleError); a refusal is an answer, not a fault.
  if (!refused && typeof document !== "undefined") console.error(error);
  return (
    <>
      <title>{`${title}${site ? ` | ${site.companyName}` : ""}`}</title>
      <meta name="robots" content="noindex" />
      {site && <Island name="site-header" props={{ companyName: site.companyName }} />}
      <main id="main" className="mx-auto max-w-2xl px-4 py-24 text-center">
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{notFound ? "404" : "Error"}</p>
        <h1 className="mt-2 text-3xl font-bold">{title}</h1>
        <p className="mt-4 text-neutral-700">{message}</p>
        <div className="mt-8 flex justify-center gap-4">
          <Link
            to="/"
            reloadDocument
            className="rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-800"
          >
            Go to the home page
          </Link>
          <Link
            to="/blog"
            reloadDocument
            className="rounded-md border border-brand-700 px-4 py-2 font-medium text-brand-800"
          >
            Read the blog
          </Link>
        </div>
      </main>
      {site && <Island name="site-footer" props={{ companyName: site.companyName, socialUrls: site.socialUrls }} />}
    </>
  );
}
