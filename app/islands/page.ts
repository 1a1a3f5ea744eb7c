/**
 * A route's `handle`, read by the root layout. Public pages hydrate as
 * islands (ADR 018); a route without `islands` loads React Router's client
 * and hydrates as a whole (the admin).
 */
export interface PageHandle {
  islands?: true;
  /** The landing page's splash and fade-ins (docs/product/interface.md#splash-and-fade-ins). */
  intro?: true;
}

export const islandsPage: PageHandle = { islands: true };
export const landingPage: PageHandle = { islands: true, intro: true };

/**
 * Whether a page whose matched routes have these handles hydrates as islands.
 * The server entry (no CSP nonce, ADR 024) and the root layout (no React
 * Router client, ADR 018) decide with this one test, so they always agree.
 */
export function isIslandsPage(handles: readonly unknown[]): boolean {
  return handles.some((handle) => (handle as PageHandle | undefined)?.islands === true);
}
