/** The page-cache domain's interface: what routes, server/ and other domains may use (README.md here). */
export { COMPRESSION_THRESHOLD, pageCache } from "./cache.server";
export { cacheKeyOf, isOpenEndedKey, keepsNotFound, pathOf } from "./key.server";
