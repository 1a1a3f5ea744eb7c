import { dbContext } from "~/server/platform/context.server";
import { healthResponse } from "~/server/platform/health.server";
import type { Route } from "./+types/healthz";

export const loader = ({ context }: Route.LoaderArgs) => healthResponse(context.get(dbContext));
