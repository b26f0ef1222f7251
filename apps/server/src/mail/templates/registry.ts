import type { EmailEnv } from "./layout";
import { contactMessageEmail } from "./contact-message";
import { emailConfirmationEmail } from "./email-confirmation";
import { enrollmentDecisionEmail } from "./enrollment-decision";
import { enrollmentProofEmail } from "./enrollment-proof";
import { enrollmentRenewalEmail } from "./enrollment-renewal";
import { passwordResetEmail } from "./password-reset";
import { schoolRegistrationEmail } from "./school-registration";
import { renderTemplate, type EmailTemplate } from "./template";
import { voucherEmail } from "./voucher";
import { voucherCancelledEmail } from "./voucher-cancelled";
import { waitlistOfferEmail } from "./waitlist-offer";

/**
 * Every e-mail the platform sends, in the order /email-preview shows them (recovery first).
 * A new message: add a file next to this one with `defineEmailTemplate` and list it here.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const EMAIL_TEMPLATES: ReadonlyArray<EmailTemplate<any>> = [passwordResetEmail, emailConfirmationEmail, voucherEmail, voucherCancelledEmail, waitlistOfferEmail, enrollmentProofEmail, enrollmentDecisionEmail, enrollmentRenewalEmail, schoolRegistrationEmail, contactMessageEmail];

/** Every template rendered with its sample data. */
export function renderEmailPreviews(env: EmailEnv) {
  return EMAIL_TEMPLATES.map((t) => ({ kind: t.kind, label: t.label, ...renderTemplate(t, t.sample(env), env) }));
}

/** Renders an outbox row from its stored kind and data (a row queued by SQL and never rendered). */
export function renderStored(kind: string, data: unknown, env: EmailEnv) {
  const template = EMAIL_TEMPLATES.find((t) => t.kind === kind);
  if (!template || data === null || typeof data !== "object") throw new Error(`no template or data to render an e-mail of kind ${kind}`);
  return renderTemplate(template, data, env);
}
