import assets from "virtual:islands-assets";

/** The islands entry and the chunks it imports (ADR 018), from the client build. */
export const islandAssets = assets;
