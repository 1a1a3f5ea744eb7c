// Types for test-browser.mjs, which playwright.config.ts imports.
export const FULL_CHROMIUM: string;
export function testBrowser(): string;
