/**
 * The contact form's fields: the honeypot, the three required fields with
 * their marks, phone, and the two choices. Labels come from content; the
 * modal owns the values and the submit.
 */
import type { ReactNode } from "react";
import {
  contactText,
  preferredContactOptions,
  serviceOptions,
  type PreferredContact,
  type ServiceInterest,
} from "~/content/contact";
import type { ContactForm, RequiredField } from "./contact-form";
import type { ContactFieldRefs } from "./use-contact-submit";

const inputClass =
  "w-full rounded-md border border-neutral-400 bg-white px-3 py-2 text-base text-neutral-900 aria-[invalid=true]:border-red-600 aria-[invalid=true]:ring-1 aria-[invalid=true]:ring-red-600";

interface FieldsProps {
  id: string;
  form: ContactForm;
  invalid: RequiredField[];
  refs: ContactFieldRefs;
  set: <K extends keyof ContactForm>(key: K, value: ContactForm[K]) => void;
}

function Field({ htmlFor, label, children }: { htmlFor: string; label: ReactNode; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={htmlFor} className="text-sm font-medium">
        {label}
      </label>
      {children}
    </div>
  );
}

function Required({ text }: { text: string }) {
  return (
    <>
      {text}{" "}
      <span className="text-red-700" aria-hidden="true">
        *
      </span>
    </>
  );
}

/** Off screen and out of the tab order; people leave it empty (docs/product/contract.md#contact-messages). */
function Honeypot({ id, inputRef }: { id: string; inputRef: ContactFieldRefs["honeypot"] }) {
  return (
    <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
      <label htmlFor={`${id}-website`}>{contactText.honeypotLabel}</label>
      <input
        ref={inputRef}
        id={`${id}-website`}
        name="website"
        type="text"
        tabIndex={-1}
        autoComplete="off"
        defaultValue=""
      />
    </div>
  );
}

function Choices({ id, form, set }: Pick<FieldsProps, "id" | "form" | "set">) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field htmlFor={`${id}-preferred`} label={contactText.preferredContact}>
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
      </Field>
      <Field htmlFor={`${id}-service`} label={contactText.service}>
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
      </Field>
    </div>
  );
}

export function ContactFields({ id, form, invalid, refs, set }: FieldsProps) {
  const { name: nameRef, email: emailRef, message: messageRef, honeypot: honeypotRef } = refs;
  const required = (name: RequiredField) => ({
    id: `${id}-${name}`,
    name,
    "aria-invalid": invalid.includes(name) ? (true as const) : undefined,
    "aria-required": true as const,
    value: form[name],
    className: inputClass,
  });
  return (
    <>
      <Honeypot id={id} inputRef={honeypotRef} />
      <Field htmlFor={`${id}-name`} label={<Required text={contactText.name} />}>
        <input ref={nameRef} {...required("name")} autoComplete="name" onChange={(e) => set("name", e.target.value)} />
      </Field>
      <Field htmlFor={`${id}-email`} label={<Required text={contactText.email} />}>
        <input
          ref={emailRef}
          {...required("email")}
          type="email"
          autoComplete="email"
          onChange={(e) => set("email", e.target.value)}
        />
      </Field>
      <Field
        htmlFor={`${id}-phone`}
        label={
          <>
            {contactText.phone} <span className="font-normal text-neutral-700">{contactText.optional}</span>
          </>
        }
      >
        <input
          id={`${id}-phone`}
          type="tel"
          name="phone"
          autoComplete="tel"
          value={form.phone}
          onChange={(e) => set("phone", e.target.value)}
          className={inputClass}
        />
      </Field>
      <Choices id={id} form={form} set={set} />
      <Field htmlFor={`${id}-message`} label={<Required text={contactText.message} />}>
        <textarea ref={messageRef} {...required("message")} rows={4} onChange={(e) => set("message", e.target.value)} />
      </Field>
    </>
  );
}
