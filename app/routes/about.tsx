import { about } from "~/content/about";
import { Island } from "~/islands/island";
import { islandsPage } from "~/islands/page";
import { pageMeta } from "~/lib/seo";
import { telHref } from "~/lib/site-settings";
import { getConfig } from "~/server/platform/config.server";
import { PUBLIC_CACHE_CONTROL } from "~/server/platform/http.server";
import { siteSettingsFor } from "~/server/settings/index.server";
import type { Route } from "./+types/about";

export const handle = islandsPage;

/** The same for every visitor: kept by the page cache, revalidated by browsers. */
export function headers() {
  return { "Cache-Control": PUBLIC_CACHE_CONTROL };
}

export async function loader({ request }: Route.LoaderArgs) {
  const { siteUrl } = getConfig();
  return { settings: await siteSettingsFor(request), siteUrl };
}

export function meta({ data }: Route.MetaArgs) {
  if (!data) return [];
  return pageMeta({
    title: `About | ${data.settings.companyName}`,
    description: `${data.settings.companyName}: technology solutions for people, by people${
      data.settings.location ? `, from ${data.settings.location}` : ""
    }.`,
    canonical: `${data.siteUrl}/about`,
  });
}

export default function About({ loaderData }: Route.ComponentProps) {
  const { settings } = loaderData;
  const { companyName, contactEmail, contactPhone, location, socialUrls } = settings;
  return (
    <>
      <Island name="site-header" props={{ companyName }} />
      <main id="main">
        <section className="bg-gradient-to-br from-brand-900 to-brand-700 px-4 py-20 text-center text-white">
          <h1 className="text-4xl font-bold sm:text-5xl">{about.title}</h1>
          <p className="mt-4 text-lg text-brand-50 sm:text-xl">{about.tagline}</p>
        </section>

        <section aria-labelledby="mission-heading" className="mx-auto w-full max-w-6xl px-4 py-16">
          <h2 id="mission-heading" className="text-3xl font-bold">
            {about.mission.heading}
          </h2>
          {about.mission.body.map((paragraph) => (
            <p key={paragraph} className="mt-4 text-lg text-neutral-800">
              {paragraph}
            </p>
          ))}
        </section>

        <section aria-labelledby="solutions-heading" className="bg-brand-50 px-4 py-16">
          <div className="mx-auto max-w-6xl">
            <h2 id="solutions-heading" className="text-3xl font-bold">
              {about.solutions.heading}
            </h2>
            <ul className="mt-8 grid gap-6 md:grid-cols-3">
              {about.solutions.items.map((solution) => (
                <li key={solution.name} className="rounded-lg bg-white p-6 shadow-sm">
                  <h3 className="text-xl font-semibold">{solution.name}</h3>
                  <p className="mt-2 text-neutral-800">{solution.summary}</p>
                  <ul className="mt-4 list-disc space-y-1 pl-5 text-neutral-800">
                    {solution.features.map((feature) => (
                      <li key={feature}>{feature}</li>
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
          </div>
        </section>

        <section aria-labelledby="ojai-heading" className="mx-auto max-w-6xl px-4 py-16">
          <h2 id="ojai-heading" className="text-3xl font-bold">
            {about.whyOjai.heading}
          </h2>
          <p className="mt-4 text-lg text-neutral-800">{about.whyOjai.intro}</p>
          <ul className="mt-8 grid gap-6 md:grid-cols-3">
            {about.whyOjai.values.map((value) => (
              <li key={value.name} className="rounded-lg border border-neutral-200 p-6">
                <h3 className="text-xl font-semibold">{value.name}</h3>
                <p className="mt-2 text-neutral-800">{value.body}</p>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="team-heading" className="bg-neutral-100 px-4 py-16">
          <div className="mx-auto max-w-6xl">
            <h2 id="team-heading" className="text-3xl font-bold">
              {about.team.heading}
            </h2>
            <ul className="mt-8 grid gap-6 sm:grid-cols-2">
              {about.team.members.map((member) => (
                <li key={member.role} className="rounded-lg bg-white p-6 shadow-sm">
                  <h3 className="text-xl font-semibold">{member.name ?? member.role}</h3>
                  {member.name && <p className="font-medium text-brand-700">{member.role}</p>}
                  <p className="mt-2 text-neutral-800">{member.bio}</p>
                </li>
              ))}
            </ul>
          </div>
        </section>

        <section aria-labelledby="story-heading" className="mx-auto w-full max-w-6xl px-4 py-16">
          <h2 id="story-heading" className="text-3xl font-bold">
            {about.story.heading}
          </h2>
          {about.story.body.map((paragraph) => (
            <p key={paragraph} className="mt-4 text-lg text-neutral-800">
              {paragraph}
            </p>
          ))}
        </section>

        <section aria-labelledby="cta-heading" className="bg-brand-800 px-4 py-16 text-center text-white">
          <h2 id="cta-heading" className="text-3xl font-bold">
            {about.cta.heading}
          </h2>
          <p className="mt-3 text-lg text-brand-50">{about.cta.body}</p>
          <Island
            name="contact-button"
            props={{
              label: about.cta.button,
              className: "mt-6 rounded-md bg-white px-6 py-3 font-semibold text-brand-900 hover:bg-brand-50",
            }}
          />
        </section>

        {/* The owner's contact details (Settings): a detail not set is left out, never a placeholder. */}
        {(contactEmail || contactPhone || location) && (
          <section aria-labelledby="contact-heading" className="mx-auto w-full max-w-6xl px-4 py-16">
            <h2 id="contact-heading" className="text-3xl font-bold">
              {about.contact.heading}
            </h2>
            <dl className="mt-6 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-lg">
              {contactEmail && (
                <>
                  <dt className="font-semibold">{about.contact.email}</dt>
                  <dd className="min-w-0 break-words">
                    <a className="text-brand-700 underline" href={`mailto:${contactEmail}`}>
                      {contactEmail}
                    </a>
                  </dd>
                </>
              )}
              {contactPhone && (
                <>
                  <dt className="font-semibold">{about.contact.phone}</dt>
                  <dd>
                    <a className="text-brand-700 underline" href={telHref(contactPhone)}>
                      {contactPhone}
                    </a>
                  </dd>
                </>
              )}
              {location && (
                <>
                  <dt className="font-semibold">{about.contact.location}</dt>
                  <dd>{location}</dd>
                </>
              )}
            </dl>
          </section>
        )}
      </main>
      <Island name="site-footer" props={{ companyName, socialUrls }} />
    </>
  );
}
