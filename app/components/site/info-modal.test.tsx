import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { defaultContent } from "~/content/site-content-defaults";
import { infoModals } from "~/content/landing";
import { islands } from "~/islands/registry";
import { InfoModal } from "./info-modal";
import { INFO_MODALS_ENABLED, MediaSection, ResearchSection, SystemsSection } from "./landing-sections";

/**
 * The info modals (docs/product/interface.md#info-modals): the trigger is an island (an interactive part the
 * browser hydrates, ADR 018), disabled as asked, and works when enabled. The
 * dialog itself is a portal, which the server does not render: what it does
 * once open (list, Escape, backdrop, scroll lock, hand-over to the contact
 * modal) is checked in the browser (tests/e2e/landing.spec.ts).
 */
const triggerOf = (html: string, id: string) =>
  new RegExp(`<button[^>]*data-testid="info-trigger-${id}"[^>]*>`).exec(html)?.[0];
const unescapeAttribute = (value: string) =>
  value
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");

describe("info modals", () => {
  it("are registered islands, so the browser hydrates their triggers", () => {
    expect(islands["info-modal"]).toBe(InfoModal);
  });

  it.each([
    ["media", MediaSection],
    ["systems", SystemsSection],
    ["research", ResearchSection],
  ] as const)("the %s section renders its trigger inside its island, disabled", (id, Section) => {
    // Each section takes its own part of the landing document; the union is narrowed by the table above.
    const html = renderToString(<Section content={defaultContent("landing")[id] as never} />);
    const island = /<div data-island="info-modal" data-props="([^"]*)"/.exec(html);
    expect(island).not.toBeNull();
    const props = JSON.parse(unescapeAttribute(island![1]!)) as { content: { id: string }; enabled: boolean };
    expect(props).toMatchObject({ content: { id }, enabled: false });
    expect(INFO_MODALS_ENABLED).toBe(false);
    expect(triggerOf(html, id)).toMatch(/\sdisabled=""/);
  });

  it("an enabled trigger is an enabled button that opens a dialog", () => {
    for (const content of infoModals) {
      const html = renderToString(<InfoModal content={content} enabled />);
      const trigger = triggerOf(html, content.id);
      expect(trigger).toBeDefined();
      expect(trigger).not.toMatch(/\sdisabled=""/);
      expect(trigger).toContain('aria-haspopup="dialog"');
      expect(trigger).toContain('aria-expanded="false"');
      expect(html).toContain(`>${content.trigger}</button>`);
    }
  });
});
