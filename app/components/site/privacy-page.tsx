import { PreviewBanner } from "~/components/site/preview-banner";
import { privacyPage } from "~/content/privacy";
import { Island } from "~/islands/island";
import { formatDate } from "~/lib/dates";
import type { PrivacyContent } from "~/lib/site-content";
import type { SiteSettings } from "~/lib/site-settings";

/**
 * The privacy page's body (issue 47): what /privacy shows, and what its
 * preview shows with a draft of the privacy document (ADR 053). The notice
 * of what the site keeps comes first, then the owner's sections, at a width
 * for reading. "Last updated" is the published document's date; the
 * original copy, never published, and a preview show none.
 */
export function PrivacyPage({
  settings,
  content,
  publishedAt = null,
  preview,
}: {
  settings: SiteSettings;
  content: PrivacyContent;
  publishedAt?: string | null;
  preview?: string;
}) {
  const { companyName, socialUrls } = settings;
  return (
    <>
      <Island name="site-header" props={{ companyName }} />
      {preview && <PreviewBanner text={preview} />}
      <main id="main">
        <section className="bg-gradient-to-br from-brand-900 to-brand-700 px-4 py-16 text-center text-white">
          <h1 className="text-4xl font-bold sm:text-5xl">{content.heading}</h1>
          {publishedAt && (
            <p className="mt-4 text-brand-50">
              {`${privacyPage.lastUpdated} `}
              <time dateTime={publishedAt}>{formatDate(publishedAt)}</time>
            </p>
          )}
        </section>
        <div className="mx-auto w-full max-w-3xl px-4 py-12">
          <p className="text-lg text-neutral-800">{content.intro}</p>
          <Keeps keeps={content.keeps} />
          {content.sections.map((section, index) => (
            <Section key={index} index={index} section={section} />
          ))}
        </div>
      </main>
      <Island name="site-footer" props={{ companyName, socialUrls }} />
    </>
  );
}

/** The notice: one item per kind of thing kept, its name and what and how long in plain words. */
function Keeps({ keeps }: { keeps: PrivacyContent["keeps"] }) {
  return (
    <section aria-labelledby="keeps-heading" className="mt-10">
      <h2 id="keeps-heading" className="text-3xl font-bold">
        {keeps.heading}
      </h2>
      <ul className="mt-6 flex flex-col gap-4">
        {keeps.items.map((item, index) => (
          <li key={index} className="rounded-lg border border-neutral-200 bg-brand-50 p-5">
            <h3 className="text-xl font-semibold">{item.name}</h3>
            <p className="mt-2 text-neutral-800">{item.body}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Section({ index, section }: { index: number; section: PrivacyContent["sections"][number] }) {
  const id = `privacy-section-${index + 1}`;
  return (
    <section aria-labelledby={id} className="mt-12">
      <h2 id={id} className="text-3xl font-bold">
        {section.heading}
      </h2>
      {section.paragraphs.map((paragraph, paragraphIndex) => (
        <p key={paragraphIndex} className="mt-4 text-lg text-neutral-800">
          {paragraph}
        </p>
      ))}
    </section>
  );
}
