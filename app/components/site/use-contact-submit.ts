/**
 * Sending the contact form: the required-field and email checks, the wait
 * that keeps a quick person above the spam threshold, the POST, and the
 * notice for each outcome (docs/product/interface.md#contact-modal). Kept
 * apart from the modal so the dialog's markup reads at once.
 */
import { useRef, useState, type FormEvent, type RefObject } from "react";
import { contactText } from "~/content/contact";
import { useNotify } from "~/components/ui/notify";
import { MIN_FILL_TIME_MS } from "~/lib/contact-rules";
import { isValidEmail } from "~/lib/email";
import { missingFields, type ContactForm, type RequiredField } from "./contact-form";

export interface ContactFieldRefs {
  name: RefObject<HTMLInputElement | null>;
  email: RefObject<HTMLInputElement | null>;
  message: RefObject<HTMLTextAreaElement | null>;
  honeypot: RefObject<HTMLInputElement | null>;
}

export function useContactSubmit(form: ContactForm, startedAt: number, onSent: () => void) {
  const notify = useNotify();
  const [invalid, setInvalid] = useState<RequiredField[]>([]);
  const [sending, setSending] = useState(false);
  const refs: ContactFieldRefs = {
    name: useRef<HTMLInputElement>(null),
    email: useRef<HTMLInputElement>(null),
    message: useRef<HTMLTextAreaElement>(null),
    honeypot: useRef<HTMLInputElement>(null),
  };

  /** Whether the form may be sent; if not, says why and focuses the first field at fault. */
  const check = () => {
    const missing = missingFields(form);
    if (missing.length === 0 && !isValidEmail(form.email.trim())) missing.push("email");
    setInvalid(missing);
    if (missing.length === 0) return true;
    const onlyEmailFormat = form.email.trim() !== "" && missingFields(form).length === 0;
    notify({ title: onlyEmailFormat ? contactText.invalidEmail : contactText.requiredError, tone: "error" });
    refs[missing[0]!].current?.focus();
    return false;
  };

  const send = async () => {
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
        website: refs.honeypot.current?.value ?? "",
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
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending || !check()) return;
    setSending(true);
    try {
      await send();
    } catch {
      notify({ title: contactText.networkError, tone: "error" });
    } finally {
      setSending(false);
    }
  };

  /** A field the visitor has now filled in is no longer marked. */
  const clearInvalid = (key: keyof ContactForm, value: string) => {
    if (invalid.includes(key as RequiredField) && value.trim() !== "") {
      setInvalid(invalid.filter((field) => field !== key));
    }
  };

  return { invalid, sending, refs, submit, clearInvalid };
}
