import type { EmailEnv } from "./layout";
import { contactMessageEmail } from "./contact-message";
import { emailConfirmationEmail } from "./email-confirmation";
import { enrollmentDecisionEmail } from "./enrollment-decision";
import { enrollmentProofEmail } from "./enrollment-proof";
import { enrollmentRenewalEmail } from "./enrollment-renewal";
import { passwordResetEmail } from "./password-reset";
import { discardCopiesEmail, proofOpenedEmail } from "./proof-opened";
import { schoolRegistrationEmail } from "./school-registration";
import { renderTemplate, type EmailTemplate, type InlineImage } from "./template";
import { voucherEmail } from "./voucher";
import { voucherCancelledEmail } from "./voucher-cancelled";
import { waitlistOfferEmail } from "./waitlist-offer";
import { webhookPausedEmail } from "./webhook-paused";

/**
 * Every e-mail the platform sends, in the order /email-preview shows them (recovery first).
 * A new message: add a file next to this one with `defineEmailTemplate` and list it here.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const EMAIL_TEMPLATES: ReadonlyArray<EmailTemplate<any>> = [passwordResetEmail, emailConfirmationEmail, voucherEmail, voucherCancelledEmail, waitlistOfferEmail, enrollmentProofEmail, enrollmentDecisionEmail, enrollmentRenewalEmail, proofOpenedEmail, discardCopiesEmail, schoolRegistrationEmail, contactMessageEmail, webhookPausedEmail];

/**
 * Every template rendered with its sample data. A browser shows no `cid:` picture outside a message,
 * so the preview puts each inline image in its place as a data URI.
 */
export function renderEmailPreviews(env: EmailEnv) {
  return Promise.all(
    EMAIL_TEMPLATES.map(async (t) => {
      const data = t.sample(env);
      const rendered = renderTemplate(t, data, env);
      const images = (await t.inlineImages?.(data, env)) ?? [];
      const html = images.reduce((page, i) => page.replaceAll(`cid:${i.cid}`, `data:${i.contentType};base64,${i.content.toString("base64")}`), rendered.html);
      return { kind: t.kind, label: t.label, ...rendered, html };
    }),
  );
}

/** The inline images an outbox row's HTML refers to, made from its kind and data when it is sent. */
export async function inlineImagesOf(kind: string, data: unknown, env: EmailEnv): Promise<InlineImage[]> {
  const template = EMAIL_TEMPLATES.find((t) => t.kind === kind);
  if (!template?.inlineImages || data === null || typeof data !== "object") return [];
  return template.inlineImages(data, env);
}

/** Renders an outbox row from its stored kind and data (a row queued by SQL and never rendered). */
export function renderStored(kind: string, data: unknown, env: EmailEnv) {
  const template = EMAIL_TEMPLATES.find((t) => t.kind === kind);
  if (!template || data === null || typeof data !== "object") throw new Error(`no template or data to render an e-mail of kind ${kind}`);
  return renderTemplate(template, data, env);
}
