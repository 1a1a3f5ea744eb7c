/** The jobs domain's interface: what routes, server/ and other domains may use (README.md here). */
export {
  countFailedJobs,
  type FailedJob,
  listFailedJobs,
  parseJobListQuery,
  parseJobScreenQuery,
  retryJob,
} from "./activity.server";
export { emit, EVENT_NAMES, type EventName, onEvent, type SiteEvent } from "./events.server";
export { init } from "./init.server";
export { enqueue, FAILED_JOBS_KEPT, pruneJobs } from "./queue.server";
export {
  defineFlusher,
  defineJob,
  defineSchedule,
  type JobContext,
  type JobKind,
  type JobOptions,
} from "./registry.server";
export { type Jobs, startJobs } from "./worker.server";
