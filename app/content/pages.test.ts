import { describe as group, expect, it } from "vitest";
import { describe, type Node } from "~/routes/admin/pages/editor/form-model";
import { CONTENT_NAMES, contentSchemas, parseContent } from "~/lib/site-content";
import { FIELD_LABELS, ITEM_LABELS, PAGE_DESCRIPTIONS, PAGE_TITLES } from "./pages";
import { defaultContent } from "./site-content-defaults";

/**
 * The Pages editor names a field by its key here (ADR 053): a key without a
 * label would show as its own name, a list without an item label as "Item".
 * Every page's original copy is a document its own schema accepts.
 */

/** Every key of a form's tree, and the keys of its lists. */
function keysOf(node: Node, key?: string, found = { fields: new Set<string>(), lists: new Set<string>() }) {
  if (key !== undefined) found.fields.add(key);
  if (node.kind === "group") for (const field of node.fields) keysOf(field.node, field.key, found);
  if (node.kind === "list") {
    if (key !== undefined) found.lists.add(key);
    keysOf(node.item, undefined, found);
  }
  return found;
}

group.each(CONTENT_NAMES)("the %s page", (name) => {
  it("has a title, a description and a label for every field and list item", () => {
    expect(PAGE_TITLES[name]).toBeTruthy();
    expect(PAGE_DESCRIPTIONS[name]).toBeTruthy();
    const { fields, lists } = keysOf(describe(contentSchemas[name]));
    expect([...fields].filter((key) => !(key in FIELD_LABELS))).toEqual([]);
    expect([...lists].filter((key) => !(key in ITEM_LABELS))).toEqual([]);
  });

  it("starts with an original copy its schema accepts", () => {
    const parsed = parseContent(name, defaultContent(name));
    expect(parsed.ok ? [] : parsed.issues).toEqual([]);
  });
});
