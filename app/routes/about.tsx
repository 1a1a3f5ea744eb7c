import { SiteFooter } from "~/components/site/site-footer";
import { SiteHeader } from "~/components/site/site-header";
import { pageMeta } from "~/lib/seo";
import { getConfig } from "~/server/config.server";
import type { Route } from "./+types/about";

export function loader() {
  const { company, siteUrl } = getConfig();
  return { company, siteUrl };
}

export function meta({ data }: Route.MetaArgs) {
  if (!data) return [];
  return pageMeta({
    title: `About | ${data.company.name}`,
    description: `${data.company.name}: technology solutions for people, by people, from Ojai, California.`,
    canonical: `${data.siteUrl}/about`,
  });
}

export default function About({ loaderData }: Route.ComponentProps) {
  const { company } = loaderData;
  return (
    <>
      <SiteHeader companyName={company.name} />
      <main id="main">
        <section className="bg-brand-800 px-4 py-20 text-center text-white">
          <h1 className="text-4xl font-bold sm:text-5xl">About</h1>
          <p className="mt-4 text-lg text-brand-100">Technology Solutions For People + By People</p>
        </section>
        <section aria-labelledby="contact-heading" className="mx-auto max-w-3xl px-4 py-12">
          <h2 id="contact-heading" className="text-2xl font-semibold">Contact</h2>
          <ul className="mt-4 space-y-1 text-neutral-800">
            <li>
              Email: <a className="text-brand-700 underline" href={`mailto:${company.email}`}>{company.email}</a>
            </li>
            <li>
              Phone: <a className="text-brand-700 underline" href={`tel:${company.phone.replace(/[^\d+]/g, "")}`}>{company.phone}</a>
            </li>
            <li>Location: Ojai, California</li>
          </ul>
        </section>
      </main>
      <SiteFooter companyName={company.name} />
    </>
  );
}
