/**
 * The Pages editor's form, read from the document's zod schema
 * (app/lib/site-content.ts, ADR 053): objects become groups of fields, arrays
 * lists with their bounds, strings inputs with their length limit, a
 * nullable {url, alt} a photo. So a field added to the schema appears in the
 * editor with its rules, and the editor never disagrees with the API.
 */
import type { z } from "zod";
import { FIELD_LABELS, ITEM_LABELS } from "~/content/pages";
import { fieldPath } from "~/lib/site-content";

export type Node =
  | { kind: "group"; fields: Array<{ key: string; node: Node }> }
  | { kind: "list"; item: Node; min: number; max: number }
  | { kind: "text"; max: number; optional: boolean }
  | { kind: "flag" }
  | { kind: "photo" };

interface Def {
  type: string;
  checks?: Array<{ _zod: { def: { check: string; minimum?: number; maximum?: number } } }>;
}
type Introspected = z.ZodType & { _zod: { def: Def } };

function def(schema: z.ZodType): Def {
  return (schema as Introspected)._zod.def;
}

function bound(schema: z.ZodType, check: "min_length" | "max_length"): number | undefined {
  for (const c of def(schema).checks ?? []) {
    if (c._zod.def.check === check) return c._zod.def.minimum ?? c._zod.def.maximum;
  }
  return undefined;
}

/** The form's tree for a schema. */
export function describe(schema: z.ZodType): Node {
  const type = def(schema).type;
  if (type === "object") {
    const shape = (schema as z.ZodObject).shape as Record<string, z.ZodType>;
    return { kind: "group", fields: Object.entries(shape).map(([key, child]) => ({ key, node: describe(child) })) };
  }
  if (type === "array") {
    const item = (schema as z.ZodArray<z.ZodType>).element;
    return {
      kind: "list",
      item: describe(item),
      min: bound(schema, "min_length") ?? 0,
      max: bound(schema, "max_length") ?? 100,
    };
  }
  if (type === "nullable") return { kind: "photo" };
  if (type === "boolean") return { kind: "flag" };
  return { kind: "text", max: bound(schema, "max_length") ?? 1000, optional: schema.safeParse("").success };
}

/** An empty value of a node: what "Add" puts in a list (its required texts then wait to be filled in). */
export function emptyValue(node: Node): unknown {
  switch (node.kind) {
    case "group":
      return Object.fromEntries(node.fields.map(({ key, node: child }) => [key, emptyValue(child)]));
    case "list":
      return Array.from({ length: node.min }, () => emptyValue(node.item));
    case "text":
      return "";
    case "flag":
      return false;
    case "photo":
      return null;
  }
}

export type Path = Array<string | number>;

export const labelOf = (key: string) => FIELD_LABELS[key] ?? key;
export const itemNameOf = (listKey: string) => ITEM_LABELS[listKey] ?? "Item";
export const itemLabelOf = (listKey: string, index: number) => `${itemNameOf(listKey)} ${index + 1}`;

/** A stable id for a field's input, from its path (ids must not hold "[" for CSS-free lookups). */
export const inputIdOf = (path: Path) => `field-${fieldPath(path).replace(/[[\].]/g, "-")}`;

/** The value at a path. */
export function getAt(value: unknown, path: Path): unknown {
  let current = value;
  for (const part of path) current = (current as Record<string | number, unknown> | undefined)?.[part];
  return current;
}

/** A copy of `value` with the value at `path` replaced (the rest shared). */
export function setAt<T>(value: T, path: Path, next: unknown): T {
  if (path.length === 0) return next as T;
  const [head, ...rest] = path;
  const container = value as Record<string | number, unknown> | unknown[];
  const child = setAt((container as Record<string | number, unknown>)[head!], rest, next);
  if (Array.isArray(container)) {
    const copy = [...container];
    copy[head as number] = child;
    return copy as T;
  }
  return { ...container, [head!]: child } as T;
}
