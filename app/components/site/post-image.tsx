/**
 * A post's header image. Every public page renders header images through this
 * component so that responsive variants (srcset/sizes) are decided in one
 * place.
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
  return (
    <img
      src={src}
      alt={alt}
      sizes={sizes}
      className={className}
      loading={priority ? "eager" : "lazy"}
      decoding="async"
      fetchPriority={priority ? "high" : "auto"}
    />
  );
}
