import assets, { stylesheet } from "virtual:islands-assets";

/** The islands entry and the chunks it imports (ADR 018), from the client build. */
export const islandAssets = assets;

/** The site's stylesheet, which public pages carry inline (ADR 031); undefined in development. */
export const publicStylesheet = stylesheet;
