/**
 * A time `days` before now, as the database stores it (ISO). Fixtures are
 * dated from now, never on a fixed day: what the site prunes or shows by age
 * (pending sign-ups, old calls, a post's date on the blog) would otherwise
 * change as the calendar moves, and the daily prunes run just after
 * midnight UTC, mid-run for a run that crosses it (docs/testing.md).
 */
export const daysAgo = (days: number): string => new Date(Date.now() - days * 86_400_000).toISOString();
