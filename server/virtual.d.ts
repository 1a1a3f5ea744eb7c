declare module "virtual:react-router/server-build" {
  import type { ServerBuild } from "react-router";
  export const entry: ServerBuild["entry"];
  export const routes: ServerBuild["routes"];
  export const assets: ServerBuild["assets"];
  const build: ServerBuild;
  export default build;
}

/** Provided by islands.vite.ts (IslandAssets there). */
declare module "virtual:islands-assets" {
  const assets: { entry: string; preload: string[]; hoverPreload: string[]; devPreamble?: string };
  export default assets;
}
