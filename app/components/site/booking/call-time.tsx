import { formatCallTime } from "~/lib/call-time";
import { useBrowserZone } from "./slot-days";
import { fill, type Template } from "./template";

/**
 * A booked call's time in a sentence of the copy (ADR 071): in the owner's
 * zone, named, as the server renders it; in the visitor's own zone once the
 * page's script runs.
 */
export function CallTime({
  start,
  ownerZone,
  sentence,
  className,
}: {
  start: string;
  ownerZone: string;
  sentence: Template;
  className?: string;
}) {
  return <p className={className}>{fill(sentence, formatCallTime(start, useBrowserZone() ?? ownerZone))}</p>;
}
