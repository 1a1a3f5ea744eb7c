import { getDb } from "~/server/db/index.server";
import { healthResponse } from "~/server/platform/health.server";

export const loader = () => healthResponse(getDb());
