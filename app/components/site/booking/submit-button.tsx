import { useEffect, useRef, useState } from "react";

/**
 * A form's submit button on a public page whose form posts without
 * JavaScript (the booking pages): once the script runs, it says `busyLabel`
 * and is disabled from the moment the form is sent until the next page
 * arrives, so a second press cannot send it twice. A page the browser
 * restores from its back-forward cache gets the button back. It has no
 * name or value: a disabled button is not sent, so what the form says
 * travels in its fields.
 */
export function SubmitButton({ label, busyLabel, className }: { label: string; busyLabel: string; className: string }) {
  const ref = useRef<HTMLButtonElement>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const form = ref.current?.form;
    if (!form) return;
    const sent = (event: SubmitEvent) => {
      if (!event.defaultPrevented) setBusy(true);
    };
    const restored = (event: PageTransitionEvent) => {
      if (event.persisted) setBusy(false);
    };
    form.addEventListener("submit", sent);
    window.addEventListener("pageshow", restored);
    return () => {
      form.removeEventListener("submit", sent);
      window.removeEventListener("pageshow", restored);
    };
  }, []);
  return (
    <button ref={ref} type="submit" disabled={busy} className={className}>
      {busy ? busyLabel : label}
    </button>
  );
}
