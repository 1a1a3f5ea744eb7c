/**
 * The booking pages' islands (ADR 071), in one module so that the browser
 * loads them as one chunk, and only on those pages (app/islands/registry.ts
 * `pageIslands`).
 */
export { CallTime } from "./call-time";
export { SlotPicker } from "./slot-picker";
export { SubmitButton } from "./submit-button";
