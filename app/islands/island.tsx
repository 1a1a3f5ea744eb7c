import type { ComponentProps } from "react";
import { islands, type IslandName, type pageIslands, type PageIslandName } from "./registry";

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
  return <IslandContainer name={name} Component={Component} props={props as object} />;
}

type PageIslandComponent<N extends PageIslandName> = Awaited<ReturnType<(typeof pageIslands)[N]>>;

/**
 * An island of one page (registry.ts `pageIslands`): the page's route
 * imports the component and hands it here for the server's render; the
 * browser loads it by name only on a page that has one.
 */
export function PageIsland<N extends PageIslandName>({
  name,
  component,
  props,
}: {
  name: N;
  component: PageIslandComponent<N>;
  props: ComponentProps<PageIslandComponent<N>>;
}) {
  return <IslandContainer name={name} Component={component as React.ComponentType<object>} props={props} />;
}

function IslandContainer({
  name,
  Component,
  props,
}: {
  name: string;
  Component: React.ComponentType<object>;
  props: object;
}) {
  return (
    <div
      {...{ [ISLAND_ATTRIBUTE]: name, [ISLAND_PROPS_ATTRIBUTE]: JSON.stringify(props) }}
      style={{ display: "contents" }}
    >
      <Component {...props} />
    </div>
  );
}
