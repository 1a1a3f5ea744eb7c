import type { ReactNode } from "react";
import type { useNavigation } from "react-router";

/** Tailwind sees only whole class names, so each width is spelled out. */
const widths = { "3xl": "max-w-3xl", "5xl": "max-w-5xl" };

/**
 * The top of an admin screen that opens with a title and a line on what it
 * is for, in a column as wide as its content needs (a list of pages, a table).
 */
export function AdminScreen({
  width,
  title,
  intro,
  children,
}: {
  width: keyof typeof widths;
  title: string;
  intro: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={`mx-auto ${widths[width]}`}>
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="mt-2 max-w-prose text-neutral-700">{intro}</p>
      {children}
    </div>
  );
}

/**
 * Whether another page or filter of the list at `path` is on its way, to dim
 * the list meanwhile; the reload after one of the screen's forms posted is
 * not (the form shows its own busy state).
 */
export function listLoading(navigation: ReturnType<typeof useNavigation>, path: string) {
  return navigation.state === "loading" && !navigation.formData && navigation.location.pathname === path;
}
