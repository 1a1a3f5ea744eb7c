/** The images domain's interface: what routes, server/ and other domains may use (README.md here). */
export {
  deleteImage,
  deletePostRow,
  describeUse,
  ImageMissingError,
  listImages,
  rebuildImageReferences,
  referencePostImages,
} from "./image-references.server";
export { rebuildPageImageReferences, referencePageImages } from "./page-references.server";
export {
  findImageVariant,
  IMAGES_BUSY_MESSAGE,
  IMAGES_BUSY_RETRY_SECONDS,
  ImageTooLargeError,
  imageVariantExists,
  imageWork,
  sniffImageFormat,
  storedImageSizes,
  storeImage,
  UnsupportedImageError,
} from "./images.server";
export { parseImageListQuery, parseImageScreenQuery } from "./list-query.server";
export { readUploadedFile } from "./uploads.server";
