/**
 * The contact form's values and its required fields, shared by the modal,
 * its submit hook and their tests (docs/product/contract.md#contact-messages).
 */
import {
  contactDefaults,
  pageHumorousMessages,
  randomHumorousMessage,
  type PreferredContact,
  type ServiceInterest,
} from "~/content/contact";

export interface ContactForm {
  name: string;
  email: string;
  phone: string;
  preferredContact: PreferredContact;
  service: ServiceInterest;
  message: string;
}

export type RequiredField = "name" | "email" | "message";

export function newContactForm(): ContactForm {
  return {
    name: "",
    email: "",
    phone: "",
    preferredContact: contactDefaults.preferredContact,
    service: contactDefaults.service,
    message: randomHumorousMessage(Math.random, pageHumorousMessages()),
  };
}

/** Name, email and message are required; phone is optional. */
export function missingFields(form: ContactForm): RequiredField[] {
  return (["name", "email", "message"] as const).filter((field) => form[field].trim() === "");
}
