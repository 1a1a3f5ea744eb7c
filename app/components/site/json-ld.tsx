import { serializeJsonLd } from "~/lib/article-seo";

/**
 * Structured data as a JSON-LD script element. A data block is never run, so
 * the Content-Security-Policy does not apply to it and it needs no nonce
 * (ADR 024): the page stays the same for every visitor.
 */
export function JsonLd({ data }: { data: unknown }) {
  return (
    <script
      type="application/ld+json"
      suppressHydrationWarning
      dangerouslySetInnerHTML={{ __html: serializeJsonLd(data) }}
    />
  );
}
