import type { ComponentProps } from "react";
import { islands, type IslandName } from "./registry";

/** The container an island hydrates into: `data-island` names it, `data-props` holds its props as JSON. */
export const ISLAND_ATTRIBUTE = "data-island";
export const ISLAND_PROPS_ATTRIBUTE = "data-props";

/**
 * An interactive part of a public page (ADR 018): rendered here on the
 * server, hydrated in the browser by app/islands/hydrate-islands.tsx with the
 * same props. The wrapper has `display: contents`, so it does not change the
 * layout.
 */
export function Island<N extends IslandName>({ name, props }: { name: N; props: ComponentProps<(typeof islands)[N]> }) {
  const Component = islands[name] as React.ComponentType<object>;
  return (
    <div
      {...{ [ISLAND_ATTRIBUTE]: name, [ISLAND_PROPS_ATTRIBUTE]: JSON.stringify(props) }}
      style={{ display: "contents" }}
    >
      <Component {...(props as object)} />
    </div>
  );
}
