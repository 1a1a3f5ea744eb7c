import { serializeJsonLd } from "~/lib/article-seo";
import { useNonce } from "~/lib/nonce";

/** Structured data as a JSON-LD script element, carrying the page's CSP nonce like every script tag. */
export function JsonLd({ data }: { data: unknown }) {
  const nonce = useNonce();
  return (
    <script
      type="application/ld+json"
      nonce={nonce}
      suppressHydrationWarning
      dangerouslySetInnerHTML={{ __html: serializeJsonLd(data) }}
    />
  );
}
