/**
 * The Pages editor's fields, drawn from the form model (form-model.ts): a
 * text with its count and its message beside it, a check box, a list whose
 * items are added, removed and moved with buttons, a group of fields.
 */
import { hintClass, inputClass, labelClass } from "~/components/admin/field-classes";
import { pagesText } from "~/content/pages";
import { fieldPath } from "~/lib/site-content";
import { emptyValue, getAt, inputIdOf, itemLabelOf, itemNameOf, labelOf, type Node, type Path } from "./form-model";
import { FieldError, useForm } from "./form-context";
import { PhotoField } from "./photo-field";

/** Texts longer than this are written in a box of several lines. */
const MULTILINE_FROM = 300;

export function FieldNode({ node, path, label }: { node: Node; path: Path; label: string }) {
  switch (node.kind) {
    case "text":
      return <TextField path={path} label={label} max={node.max} optional={node.optional} />;
    case "flag":
      return <FlagField path={path} label={label} />;
    case "photo":
      return <PhotoField path={path} label={label} />;
    case "list":
      return <ListField node={node} path={path} label={label} />;
    case "group":
      return <GroupFields node={node} path={path} />;
  }
}

function GroupFields({ node, path }: { node: Extract<Node, { kind: "group" }>; path: Path }) {
  return (
    <div className="flex flex-col gap-4">
      {node.fields.map(({ key, node: child }) => (
        <FieldNode key={key} node={child} path={[...path, key]} label={labelOf(key)} />
      ))}
    </div>
  );
}

function TextField({ path, label, max, optional }: { path: Path; label: string; max: number; optional: boolean }) {
  const { document, issues, update } = useForm();
  const id = inputIdOf(path);
  const value = (getAt(document, path) as string | undefined) ?? "";
  const error = issues.get(fieldPath(path));
  const length = [...value].length;
  const props = {
    id,
    name: fieldPath(path),
    value,
    onChange: (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => update(path, event.target.value),
    "aria-invalid": error ? true : undefined,
    "aria-required": optional ? undefined : true,
    "aria-describedby": `${id}-count${error ? ` ${id}-error` : ""}`,
    className: `${inputClass} ${error ? "border-red-700" : ""}`,
  };
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {max >= MULTILINE_FROM ? <textarea rows={max >= 1000 ? 4 : 3} {...props} /> : <input type="text" {...props} />}
      <FieldError id={`${id}-error`} message={error ? `${label} ${error}` : undefined} />
      <p id={`${id}-count`} className={`${hintClass} ${length > max ? "font-medium text-red-800" : ""}`}>
        {pagesText.count(length, max)}
      </p>
    </div>
  );
}

function FlagField({ path, label }: { path: Path; label: string }) {
  const { document, update } = useForm();
  const id = inputIdOf(path);
  return (
    <div className="flex items-center gap-2">
      <input
        id={id}
        type="checkbox"
        checked={getAt(document, path) === true}
        onChange={(event) => update(path, event.target.checked)}
        className="h-5 w-5 accent-brand-700"
      />
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
    </div>
  );
}

const smallButton =
  "min-h-9 rounded-md border border-neutral-400 bg-white px-3 py-1 text-sm font-medium hover:bg-neutral-100 disabled:cursor-not-allowed disabled:opacity-50";

function ListField({ node, path, label }: { node: Extract<Node, { kind: "list" }>; path: Path; label: string }) {
  const { document, issues, update } = useForm();
  const items = (getAt(document, path) as unknown[] | undefined) ?? [];
  const listKey = String(path.at(-1));
  const itemName = itemNameOf(listKey);
  const id = inputIdOf(path);
  const error = issues.get(fieldPath(path));
  const move = (from: number, to: number) => {
    const next = [...items];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, moved);
    update(path, next);
  };
  return (
    <fieldset
      className="flex flex-col gap-3 rounded-md border border-neutral-200 p-3"
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend className="px-1 font-semibold">{label}</legend>
      <FieldError id={`${id}-error`} message={error ? `${label} ${error}` : undefined} />
      <ol className="flex flex-col gap-3">
        {items.map((_, index) => {
          const name = itemLabelOf(listKey, index);
          return (
            <li key={index} className="flex flex-col gap-2 rounded-md bg-neutral-50 p-3">
              <div className="flex flex-wrap items-center justify-between gap-2">
                {/* A text item's own label names it; a group's fields need the item's name above them. */}
                {node.item.kind === "group" ? (
                  <span className="text-sm font-semibold text-neutral-800">{name}</span>
                ) : (
                  <span />
                )}
                <div className="flex flex-wrap gap-2">
                  <button
                    type="button"
                    className={smallButton}
                    disabled={index === 0}
                    onClick={() => move(index, index - 1)}
                    aria-label={pagesText.moveUp(name)}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    className={smallButton}
                    disabled={index === items.length - 1}
                    onClick={() => move(index, index + 1)}
                    aria-label={pagesText.moveDown(name)}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    className={smallButton}
                    disabled={items.length <= node.min}
                    onClick={() =>
                      update(
                        path,
                        items.filter((__, at) => at !== index),
                      )
                    }
                  >
                    {pagesText.remove(name)}
                  </button>
                </div>
              </div>
              <FieldNode node={node.item} path={[...path, index]} label={name} />
            </li>
          );
        })}
      </ol>
      <div>
        <button
          type="button"
          className={smallButton}
          disabled={items.length >= node.max}
          onClick={() => update(path, [...items, emptyValue(node.item)])}
        >
          {pagesText.add(itemName)}
        </button>
      </div>
    </fieldset>
  );
}
