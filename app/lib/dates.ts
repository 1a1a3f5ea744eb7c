const longDate = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "long",
  day: "numeric",
  timeZone: "UTC",
});

/** "November 20, 2026". UTC, so the server and the browser print the same text. */
export function formatDate(iso: string): string {
  return longDate.format(new Date(iso));
}
