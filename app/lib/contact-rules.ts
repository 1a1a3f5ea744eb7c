import { EMAIL_MAX_LENGTH } from "./email";
import { contactText, type preferredContactOptions, type serviceOptions } from "~/content/contact";

/**
 * The contact form's rules that the browser needs too. Kept free of zod so the
 * public pages' JavaScript does not carry a validation library (the server's
 * parsing is in app/server/messages/contact-input.server.ts). POST /api/contact: docs/product/contract.md#contact-messages.
 */
export const CONTACT_REQUIRED_MESSAGE = contactText.requiredError;
export const CONTACT_INVALID_EMAIL_MESSAGE = "Error: Please enter a valid email address.";
export const CONTACT_LIMITS = { name: 200, email: EMAIL_MAX_LENGTH, phone: 50, message: 5000 };

/** A form sent sooner than this after opening it was not typed by a person (a spam defence, docs/product/contract.md#contact-messages). */
export const MIN_FILL_TIME_MS = 3000;

export interface ContactInput {
  name: string;
  email: string;
  phone: string | null;
  preferredContact: (typeof preferredContactOptions)[number]["value"];
  service: (typeof serviceOptions)[number]["value"];
  message: string;
}
