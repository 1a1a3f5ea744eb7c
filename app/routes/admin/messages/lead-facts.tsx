/**
 * What the inbox's card and the lead screen both say of a lead (ADR 070):
 * its status, its follow-up (in words when it is due, not by colour alone),
 * the call it booked (ADR 071), where it came from, and why the site kept it
 * as spam.
 */
import { Link } from "react-router";
import { bookingAdminText } from "~/content/booking-admin";
import { LEAD_STATUS_LABELS, leadsText, SPAM_REASON_LABELS } from "~/content/leads";
import { followUpState, type LeadStatus } from "~/lib/leads";

interface Lead {
  status: LeadStatus;
  followUpAt: string | null;
  source: string | null;
  sourcePage: string | null;
  campaign: string | null;
  spamReason: string | null;
  call: { status: "booked" | "cancelled" } | null;
  /** The call's start in the owner's zone (call-time.ts). */
  callTime: string | null;
}

const badgeClass: Record<LeadStatus, string> = {
  new: "border-brand-700 bg-brand-50 text-brand-900",
  contacted: "border-sky-700 bg-sky-50 text-sky-900",
  qualified: "border-violet-700 bg-violet-50 text-violet-900",
  won: "border-green-700 bg-green-50 text-green-900",
  lost: "border-neutral-500 bg-neutral-100 text-neutral-800",
  spam: "border-red-700 bg-red-50 text-red-900",
};

/** The follow-up's words, or null without one. */
function followUpText(followUpAt: string | null, today: string) {
  const state = followUpState(followUpAt, today);
  if (!state || !followUpAt) return null;
  if (state === "overdue") return { due: true, text: leadsText.followUpOverdue(followUpAt) };
  if (state === "today") return { due: true, text: leadsText.followUpToday };
  return { due: false, text: leadsText.followUpLater(followUpAt) };
}

export function LeadFacts({ message, today, className = "" }: { message: Lead; today: string; className?: string }) {
  const followUp = followUpText(message.followUpAt, today);
  const origin = [
    leadsText.cameFrom(message.source, message.sourcePage),
    message.campaign ? leadsText.campaign(message.campaign) : null,
  ]
    .filter(Boolean)
    .join(", ");
  return (
    <div className={`flex flex-col gap-1 text-sm ${className}`}>
      <p className="flex flex-wrap items-center gap-2">
        <span className={`rounded border px-2 py-0.5 text-xs font-semibold ${badgeClass[message.status]}`}>
          {leadsText.statusBadge(LEAD_STATUS_LABELS[message.status])}
        </span>
        {followUp && (
          <span
            className={
              followUp.due
                ? "rounded border border-amber-700 bg-amber-50 px-2 py-0.5 text-xs font-semibold text-amber-900"
                : "text-xs text-neutral-700"
            }
          >
            {followUp.text}
          </span>
        )}
      </p>
      {message.call && message.callTime && (
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <span
            className={
              message.call.status === "booked"
                ? "rounded border border-emerald-700 bg-emerald-50 px-2 py-0.5 font-semibold text-emerald-900"
                : "text-neutral-700"
            }
          >
            {message.call.status === "booked"
              ? bookingAdminText.callBooked(message.callTime)
              : bookingAdminText.callCancelled(message.callTime)}
          </span>
          {message.call.status === "booked" && (
            <Link to="/admin/booking" className="text-sm font-medium text-brand-800 underline underline-offset-2">
              {bookingAdminText.manageCall}
            </Link>
          )}
        </p>
      )}
      <p className="break-words text-neutral-700">{origin}</p>
      {message.status === "spam" && (
        <p className="text-red-900">
          {leadsText.spamBecause(
            (message.spamReason && SPAM_REASON_LABELS[message.spamReason]) ?? leadsText.unknownSpamReason,
          )}
        </p>
      )}
    </div>
  );
}
