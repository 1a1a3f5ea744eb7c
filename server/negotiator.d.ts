declare module "negotiator" {
  /** negotiator 0.6.4, the version compression() uses (its published types predate `preferred`). */
  export default class Negotiator {
    constructor(request: { headers: Record<string, string | string[] | undefined> });
    /** The best of `available` for the request's Accept-Encoding; ties go to `preferred`'s order. */
    encoding(available: string[], preferred?: string[]): string | undefined;
  }
}
