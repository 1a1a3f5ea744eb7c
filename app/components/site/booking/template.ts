/**
 * A sentence of the copy with one value in it (`bookingPage.timesInYours`),
 * as an island's JSON props carry it: the text before and after the value,
 * cut by the server from the copy's own function (app/routes/book/island-text.ts).
 * The island fills in what only the browser knows (its time zone, a time in
 * it) without importing the page's copy, which would add to the booking
 * pages' first load.
 */
export type Template = [before: string, after: string];

export const fill = ([before, after]: Template, value: string): string => `${before}${value}${after}`;
