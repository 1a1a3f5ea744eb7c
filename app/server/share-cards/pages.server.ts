import { shareCardText } from "~/content/share-cards";
import { parseImageVariantPath } from "~/lib/images";
import type { Db } from "../db/db.server";
import { shareCardFor, type ShareCard } from "./cards.server";
import { photoSubject, textSubject } from "./subject.server";

/**
 * Which card each public page shows (ADR 073): an article with an uploaded
 * header image, a crop of it; every other page, the site's own card with
 * the page's label and title (app/content/share-cards.ts), the company's
 * name and the site's host.
 */

interface CardSite {
  companyName: string;
  siteUrl: string;
}

type Page = "landing" | "blog";

const siteSubject = (site: CardSite, label: string, title: string) =>
  textSubject({ label, title, site: site.companyName, host: new URL(site.siteUrl).host });

function siteCard(db: Db, site: CardSite, page: string, label: string, title: string): Promise<ShareCard | undefined> {
  return shareCardFor(db, page, siteSubject(site, label, title));
}

/** The landing page's and the blog's cards: fixed words. */
export function pageCardFor(db: Db, site: CardSite, page: Page): Promise<ShareCard | undefined> {
  const text = shareCardText[page];
  return siteCard(db, site, page === "landing" ? "/" : "/blog", text.label, text.title);
}

/** The About page's card: its tagline. */
export function aboutCardFor(db: Db, site: CardSite, tagline: string): Promise<ShareCard | undefined> {
  return siteCard(db, site, "/about", shareCardText.about.label, shareCardText.about.title(tagline));
}

/** The privacy page's card: its heading. */
export function privacyCardFor(db: Db, site: CardSite, heading: string): Promise<ShareCard | undefined> {
  return siteCard(db, site, "/privacy", shareCardText.privacy.label, shareCardText.privacy.title(heading));
}

export function categoryCardFor(
  db: Db,
  site: CardSite,
  category: { slug: string; name: string },
): Promise<ShareCard | undefined> {
  const { label, title } = shareCardText.category;
  return siteCard(db, site, `/blog/category/${category.slug}`, label, title(category.name));
}

/** An article's card: its uploaded header image, cropped, else its title on the site's card. */
export function articleCardFor(
  db: Db,
  site: CardSite,
  article: { slug: string; title: string; metaTitle?: string | null; category: string; headerImage: string | null },
): Promise<ShareCard | undefined> {
  const page = `/blog/${article.slug}`;
  const text = shareCardText.article;
  const titleCard = siteSubject(site, text.label(article.category), text.title(article.metaTitle || article.title));
  // An upload's crop (checked to be there only until it is stored), else the title on the site's card.
  if (article.headerImage && parseImageVariantPath(article.headerImage))
    return shareCardFor(db, page, photoSubject(article.headerImage), titleCard);
  return shareCardFor(db, page, titleCard);
}
