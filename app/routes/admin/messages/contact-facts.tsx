/**
 * How a message's sender asked to be reached, as the inbox's card and the
 * lead screen both list it: terms and values for the caller's <dl>.
 */
import { preferredContactOptions, serviceOptions } from "~/content/contact";

const label = (options: ReadonlyArray<{ value: string; label: string }>, value: string) =>
  options.find((option) => option.value === value)?.label ?? value;

export function ContactFacts({
  message,
}: {
  message: { email: string; phone: string | null; preferredContact: string; service: string };
}) {
  return (
    <>
      <dt className="font-medium">Email</dt>
      <dd className="mb-2 min-w-0 break-words sm:mb-0">
        <a className="text-brand-700 underline" href={`mailto:${message.email}`}>
          {message.email}
        </a>
      </dd>
      <dt className="font-medium">Phone</dt>
      <dd className="mb-2 sm:mb-0">{message.phone ?? "-"}</dd>
      <dt className="font-medium">Preferred Contact Method</dt>
      <dd className="mb-2 sm:mb-0">{label(preferredContactOptions, message.preferredContact)}</dd>
      {/* A booked call's lead asked for no service (ADR 071): no empty entry. */}
      {message.service && (
        <>
          <dt className="font-medium">Service Interest</dt>
          <dd className="mb-2 sm:mb-0">{label(serviceOptions, message.service)}</dd>
        </>
      )}
    </>
  );
}
