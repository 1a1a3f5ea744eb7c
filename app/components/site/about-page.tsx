import { about } from "~/content/about";
import { bookingPage } from "~/content/booking";
import { useBookingOpen } from "./booking-open";
import { PreviewBanner } from "~/components/site/preview-banner";
import { Island } from "~/islands/island";
import type { AboutContent } from "~/lib/site-content";
import { telHref, type SiteSettings } from "~/lib/site-settings";

/**
 * The About page's body (docs/product/interface.md#about-page): what /about
 * shows, and what its preview shows with a draft of the about document
 * (ADR 053). The page's title and the contact labels are fixed copy
 * (app/content/about.ts); the contact details are the Settings'.
 */
export function AboutPage({
  settings,
  content,
  preview,
}: {
  settings: SiteSettings;
  content: AboutContent;
  preview?: string;
}) {
  const { companyName, contactEmail, contactPhone, location, socialUrls } = settings;
  const bookingOpen = useBookingOpen();
  return (
    <>
      <Island name="site-header" props={{ companyName }} />
      {preview && <PreviewBanner text={preview} />}
      <main id="main">
        <section className="bg-gradient-to-br from-brand-900 to-brand-700 px-4 py-20 text-center text-white">
          <h1 className="text-4xl font-bold sm:text-5xl">{about.title}</h1>
          <p className="mt-4 text-lg text-brand-50 sm:text-xl">{content.tagline}</p>
        </section>

        <section aria-labelledby="mission-heading" className="mx-auto w-full max-w-6xl px-4 py-16">
          <h2 id="mission-heading" className="text-3xl font-bold">
            {content.mission.heading}
          </h2>
          {content.mission.paragraphs.map((paragraph, index) => (
            <p key={index} className="mt-4 text-lg text-neutral-800">
              {paragraph}
            </p>
          ))}
        </section>

        <section aria-labelledby="solutions-heading" className="bg-brand-50 px-4 py-16">
          <div className="mx-auto max-w-6xl">
            <h2 id="solutions-heading" className="text-3xl font-bold">
              {content.solutions.heading}
            </h2>
            <ul className="mt-8 grid gap-6 md:grid-cols-3">
              {content.solutions.items.map((solution, index) => (
                <li key={index} className="rounded-lg bg-white p-6 shadow-sm">
                  <h3 className="text-xl font-semibold">{solution.name}</h3>
                  <p className="mt-2 text-neutral-800">{solution.summary}</p>
                  <ul className="mt-4 list-disc space-y-1 pl-5 text-neutral-800">
                    {solution.features.map((feature, featureIndex) => (
                      <li key={featureIndex}>{feature}</li>
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
          </div>
        </section>

        <section aria-labelledby="ojai-heading" className="mx-auto max-w-6xl px-4 py-16">
          <h2 id="ojai-heading" className="text-3xl font-bold">
            {content.values.heading}
          </h2>
          <p className="mt-4 text-lg text-neutral-800">{content.values.intro}</p>
          <ul className="mt-8 grid gap-6 md:grid-cols-3">
            {content.values.items.map((value, index) => (
              <li key={index} className="rounded-lg border border-neutral-200 p-6">
                <h3 className="text-xl font-semibold">{value.name}</h3>
                <p className="mt-2 text-neutral-800">{value.body}</p>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="team-heading" className="bg-neutral-100 px-4 py-16">
          <div className="mx-auto max-w-6xl">
            <h2 id="team-heading" className="text-3xl font-bold">
              {content.team.heading}
            </h2>
            <ul className="mt-8 grid gap-6 sm:grid-cols-2">
              {content.team.members.map((member, index) => (
                <TeamMember key={index} member={member} />
              ))}
            </ul>
          </div>
        </section>

        <section aria-labelledby="story-heading" className="mx-auto w-full max-w-6xl px-4 py-16">
          <h2 id="story-heading" className="text-3xl font-bold">
            {content.story.heading}
          </h2>
          {content.story.paragraphs.map((paragraph, index) => (
            <p key={index} className="mt-4 text-lg text-neutral-800">
              {paragraph}
            </p>
          ))}
        </section>

        <section aria-labelledby="cta-heading" className="bg-brand-800 px-4 py-16 text-center text-white">
          <h2 id="cta-heading" className="text-3xl font-bold">
            {content.cta.heading}
          </h2>
          <p className="mt-3 text-lg text-brand-50">{content.cta.body}</p>
          <Island
            name="contact-button"
            props={{
              label: content.cta.button,
              className: "mt-6 rounded-md bg-white px-6 py-3 font-semibold text-brand-900 hover:bg-brand-50",
            }}
          />
          {bookingOpen && (
            <p className="mt-4">
              <a href="/book" className="font-medium text-white underline underline-offset-2 hover:text-brand-50">
                {bookingPage.link}
              </a>
            </p>
          )}
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

type Member = AboutContent["team"]["members"][number];

/** A team member: the name (or, without one, the role) as the heading, the photo when there is one. */
function TeamMember({ member }: { member: Member }) {
  return (
    <li className="rounded-lg bg-white p-6 shadow-sm">
      {member.photo && (
        <img
          src={member.photo.url}
          alt={member.photo.alt}
          width={96}
          height={96}
          loading="lazy"
          decoding="async"
          className="mb-4 h-24 w-24 rounded-full object-cover"
        />
      )}
      <h3 className="text-xl font-semibold">{member.name || member.role}</h3>
      {member.name ? <p className="font-medium text-brand-700">{member.role}</p> : null}
      <p className="mt-2 text-neutral-800">{member.bio}</p>
    </li>
  );
}
