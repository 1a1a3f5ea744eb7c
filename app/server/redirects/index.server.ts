/** The redirects domain's interface: what routes, server/, posts and backup may use (README.md here). */
export { exportRedirectsCsv, importRedirectsCsv } from "./csv.server";
export { parseNotFoundListQuery, parseRedirectListQuery, parseRedirectScreenQuery } from "./list-query.server";
export { redirectLookup } from "./lookup.server";
export { dismissNotFound, init, listNotFound, NOT_FOUND_LIMITS, notFoundCounter } from "./not-found.server";
export {
  countRedirects,
  createRedirect,
  deleteRedirect,
  dropRedirectsTo,
  findRedirect,
  followAddressChange,
  importRedirect,
  listRedirects,
  readAllRedirects,
  redirectsFrom,
  RedirectError,
  takeAddress,
  updateRedirect,
} from "./redirects.server";
