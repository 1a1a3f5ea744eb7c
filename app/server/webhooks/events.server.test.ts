import { expect, it } from "vitest";
import { WEBHOOK_EVENTS } from "~/lib/webhooks";
import { EVENT_NAMES } from "../jobs/index.server";

/** The events the Webhooks screen offers are the events the jobs domain emits (ADR 067, 068). */
it("offers every event the site emits, and no other", () => {
  expect([...WEBHOOK_EVENTS].sort()).toEqual([...EVENT_NAMES].sort());
});
