import * as Dialog from "@radix-ui/react-dialog";
import { useId, useRef, useState, useSyncExternalStore } from "react";
import {
  contactDefaults,
  contactText,
  preferredContactOptions,
  randomHumorousMessage,
  serviceOptions,
  type PreferredContact,
  type ServiceInterest,
} from "~/content/contact";
import { useNotify } from "~/components/ui/notify";
import { MIN_FILL_TIME_MS } from "~/lib/contact-rules";
import { isValidEmail } from "~/lib/email";
import { contactModalState } from "./contact-store";

export interface ContactForm {
  name: string;
  email: string;
  phone: string;
  preferredContact: PreferredContact;
  service: ServiceInterest;
  message: string;
}

type RequiredField = "name" | "email" | "message";

export function newContactForm(): ContactForm {
  return {
    name: "",
    email: "",
    phone: "",
    preferredContact: contactDefaults.preferredContact,
    service: contactDefaults.service,
    message: randomHumorousMessage(),
  };
}

/** Name, email and message are required; phone is optional (docs/product/contract.md#contact-messages). */
export function missingFields(form: ContactForm): RequiredField[] {
  return (["name", "email", "message"] as const).filter((field) => form[field].trim() === "");
}

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

const inputClass =
  "w-full rounded-md border border-neutral-400 bg-white px-3 py-2 text-base text-neutral-900 aria-[invalid=true]:border-red-600 aria-[invalid=true]:ring-1 aria-[invalid=true]:ring-red-600";

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
  const notify = useNotify();
  const id = useId();
  const [invalid, setInvalid] = useState<RequiredField[]>([]);
  const [sending, setSending] = useState(false);
  const honeypot = useRef<HTMLInputElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const messageRef = useRef<HTMLTextAreaElement>(null);

  const set = <K extends keyof ContactForm>(key: K, value: ContactForm[K]) => {
    onChange({ ...form, [key]: value });
    if (invalid.includes(key as RequiredField) && String(value).trim() !== "") {
      setInvalid(invalid.filter((field) => field !== key));
    }
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (sending) return;
    const missing = missingFields(form);
    if (missing.length === 0 && !isValidEmail(form.email.trim())) missing.push("email");
    setInvalid(missing);
    if (missing.length > 0) {
      const onlyEmailFormat = form.email.trim() !== "" && missingFields(form).length === 0;
      notify({ title: onlyEmailFormat ? contactText.invalidEmail : contactText.requiredError, tone: "error" });
      const first = { name: nameRef, email: emailRef, message: messageRef }[missing[0]!];
      first.current?.focus();
      return;
    }
    setSending(true);
    try {
      // A person who is quicker than the spam threshold just waits a moment.
      const wait = MIN_FILL_TIME_MS + 100 - (Date.now() - startedAt);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const response = await fetch("/api/contact", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        credentials: "include",
        body: JSON.stringify({
          ...form,
          phone: form.phone.trim() || undefined,
          website: honeypot.current?.value ?? "",
          elapsedMs: Date.now() - startedAt,
        }),
      });
      if (response.status === 201) {
        notify({ title: contactText.successTitle, description: contactText.successBody, tone: "success" });
        setInvalid([]);
        onSent();
        return;
      }
      const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
      const message = response.status < 500 && typeof body?.error === "string" ? body.error : contactText.serverError;
      notify({ title: message, tone: "error" });
    } catch {
      notify({ title: contactText.networkError, tone: "error" });
    } finally {
      setSending(false);
    }
  };

  const field = (name: RequiredField) => ({
    id: `${id}-${name}`,
    "aria-invalid": invalid.includes(name) ? (true as const) : undefined,
    "aria-required": true as const,
  });

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
          <Dialog.Close
            aria-label={contactText.close}
            className="absolute right-3 top-3 rounded p-2 text-neutral-700 hover:bg-neutral-100"
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 20 20"
              className="h-5 w-5"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            >
              <path d="M5 5l10 10M15 5L5 15" />
            </svg>
          </Dialog.Close>

          <form
            noValidate
            onSubmit={(event) => void submit(event)}
            aria-busy={sending}
            className="mt-5 flex flex-col gap-4"
          >
            {/* Honeypot (docs/product/contract.md#contact-messages): off screen and out of the tab order; people leave it empty. */}
            <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
              <label htmlFor={`${id}-website`}>{contactText.honeypotLabel}</label>
              <input
                ref={honeypot}
                id={`${id}-website`}
                name="website"
                type="text"
                tabIndex={-1}
                autoComplete="off"
                defaultValue=""
              />
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor={`${id}-name`} className="text-sm font-medium">
                {contactText.name}{" "}
                <span className="text-red-700" aria-hidden="true">
                  *
                </span>
              </label>
              <input
                ref={nameRef}
                {...field("name")}
                name="name"
                autoComplete="name"
                value={form.name}
                onChange={(e) => set("name", e.target.value)}
                className={inputClass}
              />
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor={`${id}-email`} className="text-sm font-medium">
                {contactText.email}{" "}
                <span className="text-red-700" aria-hidden="true">
                  *
                </span>
              </label>
              <input
                ref={emailRef}
                {...field("email")}
                type="email"
                name="email"
                autoComplete="email"
                value={form.email}
                onChange={(e) => set("email", e.target.value)}
                className={inputClass}
              />
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor={`${id}-phone`} className="text-sm font-medium">
                {contactText.phone} <span className="font-normal text-neutral-700">{contactText.optional}</span>
              </label>
              <input
                id={`${id}-phone`}
                type="tel"
                name="phone"
                autoComplete="tel"
                value={form.phone}
                onChange={(e) => set("phone", e.target.value)}
                className={inputClass}
              />
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="flex flex-col gap-1">
                <label htmlFor={`${id}-preferred`} className="text-sm font-medium">
                  {contactText.preferredContact}
                </label>
                <select
                  id={`${id}-preferred`}
                  name="preferredContact"
                  value={form.preferredContact}
                  onChange={(e) => set("preferredContact", e.target.value as PreferredContact)}
                  className={inputClass}
                >
                  {preferredContactOptions.map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </select>
              </div>
              <div className="flex flex-col gap-1">
                <label htmlFor={`${id}-service`} className="text-sm font-medium">
                  {contactText.service}
                </label>
                <select
                  id={`${id}-service`}
                  name="service"
                  value={form.service}
                  onChange={(e) => set("service", e.target.value as ServiceInterest)}
                  className={inputClass}
                >
                  {serviceOptions.map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </select>
              </div>
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor={`${id}-message`} className="text-sm font-medium">
                {contactText.message}{" "}
                <span className="text-red-700" aria-hidden="true">
                  *
                </span>
              </label>
              <textarea
                ref={messageRef}
                {...field("message")}
                name="message"
                rows={4}
                value={form.message}
                onChange={(e) => set("message", e.target.value)}
                className={inputClass}
              />
            </div>
            <button
              type="submit"
              disabled={sending}
              className="mt-1 rounded-md bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-800 disabled:cursor-wait disabled:opacity-80"
            >
              {sending ? contactText.submitting : contactText.submit}
            </button>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
