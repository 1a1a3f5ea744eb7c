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

function siteCard(db: Db, site: CardSite, label: string, title: string): Promise<ShareCard> {
  const host = new URL(site.siteUrl).host;
  return shareCardFor(db, textSubject({ label, title, site: site.companyName, host }));
}

/** The landing page's and the blog's cards: fixed words. */
export function pageCardFor(db: Db, site: CardSite, page: Page): Promise<ShareCard> {
  const text = shareCardText[page];
  return siteCard(db, site, text.label, text.title);
}

/** The About page's card: its tagline. */
export function aboutCardFor(db: Db, site: CardSite, tagline: string): Promise<ShareCard> {
  return siteCard(db, site, shareCardText.about.label, shareCardText.about.title(tagline));
}

/** The privacy page's card: its heading. */
export function privacyCardFor(db: Db, site: CardSite, heading: string): Promise<ShareCard> {
  return siteCard(db, site, shareCardText.privacy.label, shareCardText.privacy.title(heading));
}

export function categoryCardFor(db: Db, site: CardSite, name: string): Promise<ShareCard> {
  return siteCard(db, site, shareCardText.category.label, shareCardText.category.title(name));
}

/** An article's card: its uploaded header image, cropped, else its title on the site's card. */
export function articleCardFor(
  db: Db,
  site: CardSite,
  article: { title: string; metaTitle?: string | null; category: string; headerImage: string | null },
): Promise<ShareCard> {
  if (article.headerImage && parseImageVariantPath(article.headerImage))
    return shareCardFor(db, photoSubject(article.headerImage));
  const text = shareCardText.article;
  return siteCard(db, site, text.label(article.category), text.title(article.metaTitle || article.title));
}
