import {
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import "./app.css";
import { SiteFooter } from "./components/site/site-footer";
import { SiteHeader } from "./components/site/site-header";
import { SiteUi } from "./components/site/site-ui";
import { useNonce } from "./lib/nonce";
import { getConfig } from "./server/config.server";

export function loader() {
  const { company, siteUrl } = getConfig();
  return { company, siteUrl };
}

export type RootData = Awaited<ReturnType<typeof loader>>;

export function useSite(): RootData {
  return useRouteLoaderData<RootData>("root")!;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1b4d2d" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
      </head>
      <body>
        <SiteUi>
          <div className="site-shell">{children}</div>
        </SiteUi>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const site = useRouteLoaderData<RootData>("root");
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const title = notFound ? "Page not found" : "Something went wrong";
  const message = notFound
    ? "The page you asked for does not exist, or is not published yet."
    : "An unexpected error occurred. Please try again in a moment.";
  if (!notFound) console.error(error);
  return (
    <>
      <title>{`${title}${site ? ` | ${site.company.name}` : ""}`}</title>
      <meta name="robots" content="noindex" />
      {site && <SiteHeader companyName={site.company.name} />}
      <main id="main" className="mx-auto max-w-2xl px-4 py-24 text-center">
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">
          {notFound ? "404" : "Error"}
        </p>
        <h1 className="mt-2 text-3xl font-bold">{title}</h1>
        <p className="mt-4 text-neutral-700">{message}</p>
        <div className="mt-8 flex justify-center gap-4">
          <Link to="/" className="rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-800">
            Go to the home page
          </Link>
          <Link to="/blog" className="rounded-md border border-brand-700 px-4 py-2 font-medium text-brand-800">
            Read the blog
          </Link>
        </div>
      </main>
      {site && <SiteFooter companyName={site.company.name} />}
    </>
  );
}
