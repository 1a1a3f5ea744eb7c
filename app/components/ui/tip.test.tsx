import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Tip, Tooltips } from "./tip";
import * as radix from "./tip-radix";

/**
 * The server renders every Tip without tooltips, and screens that hover
 * hydrate it with Radix's (ADR 025): both must give the same markup, or the
 * page would hydrate with a mismatch. Fails if a Radix upgrade adds an
 * attribute to its trigger.
 */
const controls = [
  <button key="button" type="button" aria-label="Next article" className="rounded-full p-3">
    <svg aria-hidden="true" viewBox="0 0 24 24" />
  </button>,
  <a key="link" href="/about" aria-label="About" className="flex h-10 w-10">
    <span>in</span>
  </a>,
];

describe("Tip", () => {
  it.each(controls.map((control) => [control.key, control] as const))(
    "a %s renders the same with Radix's tooltip as without",
    (_, control) => {
      const plain = renderToString(control);
      const withoutTooltips = renderToString(
        <Tooltips implementation={null}>
          <Tip label="Label">{control}</Tip>
        </Tooltips>,
      );
      const withTooltips = renderToString(
        <Tooltips implementation={radix}>
          <Tip label="Label" side="top">
            {control}
          </Tip>
        </Tooltips>,
      );
      expect(withoutTooltips).toBe(plain);
      expect(withTooltips).toBe(plain);
    },
  );

  it("renders its control alone outside any Tooltips (the server)", () => {
    const control = controls[0]!;
    expect(renderToString(<Tip label="Label">{control}</Tip>)).toBe(renderToString(control));
  });
});
