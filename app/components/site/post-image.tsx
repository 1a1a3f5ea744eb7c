import { imageSrcSet } from "~/lib/images";

/**
 * A post's header image. Every public page renders header images through this
 * component so that responsive variants (srcset/sizes) are decided in one
 * place: an uploaded image (/images/{hash}-{width}.webp) gets a srcset of all
 * its stored widths, and the browser picks the one that fits `sizes`; any
 * other URL is shown as it is.
 */
export function PostImage({
  src,
  alt = "",
  sizes,
  className,
  priority = false,
}: {
  src: string;
  alt?: string;
  /** The sizes attribute for the layout this image sits in. */
  sizes: string;
  className?: string;
  /** The page's main image: load it eagerly and early. */
  priority?: boolean;
}) {
  const srcSet = imageSrcSet(src);
  return (
    <img
      src={src}
      srcSet={srcSet}
      sizes={srcSet ? sizes : undefined}
      alt={alt}
      className={className}
      loading={priority ? "eager" : "lazy"}
      decoding="async"
      fetchPriority={priority ? "high" : "auto"}
    />
  );
}
