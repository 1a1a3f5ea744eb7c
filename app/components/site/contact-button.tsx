import { contactTrigger } from "./contact-trigger";

/** A button that opens the global contact modal ('Get Started'). */
export function ContactButton({ label, className }: { label: string; className: string }) {
  return (
    <button type="button" {...contactTrigger} className={className}>
      {label}
    </button>
  );
}
