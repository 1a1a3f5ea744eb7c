/**
 * The line a page's preview shows at the bottom of the screen (ADR 053): the
 * page is the draft, not what visitors see. Fixed, so it stays clear of the
 * landing page's header over the hero.
 */
export function PreviewBanner({ text }: { text: string }) {
  return (
    <p
      data-testid="preview-notice"
      className="fixed inset-x-0 bottom-0 z-50 border-t border-amber-300 bg-amber-50 px-4 py-2 text-center text-sm text-amber-950"
    >
      {text}
    </p>
  );
}
