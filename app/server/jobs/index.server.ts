/** The jobs domain's interface: what routes, server/ and other domains may use (README.md here). */
export { countFailedJobs, listFailedJobs, parseJobListQuery, parseJobScreenQuery, retryJob } from "./activity.server";
export { emit, onEvent, type SiteEvent } from "./events.server";
export { init } from "./init.server";
export { enqueue, FAILED_JOBS_KEPT, isJobWaiting, pruneJobs } from "./queue.server";
export { defineFlusher, defineJob, defineSchedule, type JobContext, type JobKind } from "./registry.server";
export { startJobs } from "./worker.server";
