import * as Dialog from "@radix-ui/react-dialog";
import { useId, useState, useSyncExternalStore } from "react";
import { bookingPage } from "~/content/booking";
import { contactText } from "~/content/contact";
import { ContactFields } from "./contact-fields";
import { newContactForm, type ContactForm } from "./contact-form";
import { PrivacyLink } from "./privacy-link";
import { contactModalState } from "./contact-store";
import { useContactSubmit } from "./use-contact-submit";

/**
 * The contact modal is global (docs/product/interface.md#contact-modal): one open/closed state and one form
 * for the whole site. Mounted when it is first opened, so the prefilled
 * sentence is picked in the browser, when first needed. Closing it keeps what
 * was typed; only a successful send resets the form.
 */
export function ContactLayer() {
  const open = useSyncExternalStore(contactModalState.subscribe, contactModalState.isOpen, () => false);
  const [form, setForm] = useState(newContactForm);
  // When the visitor first opened this form: a form sent within seconds was not typed by a person.
  const [startedAt, setStartedAt] = useState(() => Date.now());
  return (
    <ContactModal
      open={open}
      onOpenChange={contactModalState.setOpen}
      form={form}
      onChange={setForm}
      startedAt={startedAt}
      onSent={() => {
        setStartedAt(Date.now());
        setForm(newContactForm());
        contactModalState.setOpen(false);
      }}
    />
  );
}

/**
 * Whether the owner takes bookings now, as the server wrote it on the page's
 * `<body data-booking>` (the modal is a React root of its own, without the
 * router whose loader data the pages read).
 */
const bookingOpenInPage = (): boolean => typeof document !== "undefined" && document.body.dataset.booking === "open";

function CloseButton() {
  return (
    <Dialog.Close
      aria-label={contactText.close}
      className="absolute right-3 top-3 rounded p-2 text-neutral-700 hover:bg-neutral-100"
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
        <path d="M5 5l10 10M15 5L5 15" />
      </svg>
    </Dialog.Close>
  );
}

function ContactModal({
  open,
  onOpenChange,
  form,
  onChange,
  onSent,
  startedAt,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  form: ContactForm;
  onChange: (form: ContactForm) => void;
  onSent: () => void;
  startedAt: number;
}) {
  const id = useId();
  const { invalid, sending, refs, submit, clearInvalid } = useContactSubmit(form, startedAt, onSent);
  const set = <K extends keyof ContactForm>(key: K, value: ContactForm[K]) => {
    onChange({ ...form, [key]: value });
    clearInvalid(key, String(value));
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay data-testid="contact-backdrop" className="fixed inset-0 z-[70] bg-black/60" />
        <Dialog.Content
          onCloseAutoFocus={(event) => {
            // No Radix trigger opened it: focus goes back to the control that did.
            const target = contactModalState.takeReturnFocus();
            if (!target) return;
            event.preventDefault();
            target.focus();
          }}
          className="fixed left-1/2 top-1/2 z-[70] max-h-[92dvh] w-[calc(100%-1.5rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg bg-white p-6 text-neutral-900 shadow-xl"
        >
          <Dialog.Title className="text-2xl font-bold">{contactText.title}</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-neutral-700">{contactText.description}</Dialog.Description>
          <CloseButton />
          <form
            noValidate
            onSubmit={(event) => void submit(event)}
            aria-busy={sending}
            className="mt-5 flex flex-col gap-4"
          >
            <ContactFields id={id} form={form} invalid={invalid} refs={refs} set={set} />
            <button
              type="submit"
              disabled={sending}
              className="mt-1 rounded-md bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-800 disabled:cursor-wait disabled:opacity-80"
            >
              {sending ? contactText.submitting : contactText.submit}
            </button>
            <PrivacyLink className="-mt-2 text-center" />
          </form>
          {/* Another way in, while the owner takes bookings: a call at a time the visitor picks (ADR 071). */}
          {bookingOpenInPage() && (
            <p className="mt-4 text-center text-sm">
              <a href="/book" className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900">
                {bookingPage.link}
              </a>
            </p>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
