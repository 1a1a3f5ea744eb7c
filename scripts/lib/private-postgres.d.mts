// Types for private-postgres.mjs, which the TypeScript tests import.
export interface PrivatePostgres {
  port: number;
  dir: string;
  /** The cluster's `postgres` database: a role that may create databases. */
  adminUrl: string;
  /** A new database on the cluster, as a DATABASE_URL. */
  createDatabase(name: string): Promise<string>;
  /** pg_ctl stop -m fast: open connections are ended, as in a restart of the server. */
  stop(): void;
  /** pg_ctl start, waiting until it accepts connections. */
  start(): void;
  /** Stops it at once and removes its folder. */
  destroy(): void;
}
export function machinePostgresPrograms(): { initdb: string; pgCtl: string } | undefined;
export function npmPostgresPrograms(): { initdb: string; pgCtl: string };
export function startPrivatePostgres(options?: { reapAfter?: number }): Promise<PrivatePostgres>;
export const DEFAULT_TEST_POSTGRES_URL: string;
export function postgresForTests(options?: {
  explicit?: string;
  fallback?: string;
  reapAfter?: number;
}): Promise<{ url: string; cluster?: PrivatePostgres }>;
export function answers(url: string): Promise<boolean>;
