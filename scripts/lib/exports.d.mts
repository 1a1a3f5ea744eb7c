// Types for exports.mjs, which the TypeScript tests import.
export interface WxrPost {
  id: number;
  title: string;
  slug: string;
  /** publish, draft, future, private, pending, trash. */
  status?: string;
  type?: string;
  html?: string;
  excerpt?: string;
  /** "2020-01-05 10:00:00" (GMT). */
  dateGmt?: string;
  /** The permalink; WordPress gives drafts `{site}/?p={id}`. */
  link?: string;
  category?: { name: string; nicename: string };
  creator?: string;
  thumbnailId?: number;
}

export interface WxrAttachment {
  id: number;
  url: string;
  alt?: string;
}

/** One `<item>` as WordPress writes it. */
export function wxrItem(post: WxrPost, site: string): string;
/** The file's start: the XML declaration, the RSS root with WordPress's namespaces, the channel's own facts. */
export function wxrHead(site: string): string;
export const WXR_TAIL: string;
export function wxrFile(site: string, posts: WxrPost[], attachments?: WxrAttachment[]): string;
/** A post of about `bytes` of HTML, for the big files. */
export function bulkPost(id: number, bytes?: number): WxrPost;
