/** The outbound domain's interface: the site's own HTTP requests to addresses an administrator gave (README.md here). */
export { addressRefusal, type LookupFunction, type OutboundOptions } from "./addresses.server";
export { checkOutboundEndpoint, outboundAgents } from "./agents.server";
export { checkOutboundUrl, OutboundError, outboundFetch } from "./fetch.server";
