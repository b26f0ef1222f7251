export { escapeHtml, html, raw, safeUrl, SafeHtml } from "./html";
export { renderEmail, type EmailBlock, type EmailContent, type EmailEnv, type RenderedEmail } from "./layout";
export { defineEmailTemplate, enqueueTemplate, renderQueued, renderTemplate, type EmailTemplate, type MailOwners } from "./template";
export { EMAIL_TEMPLATES, renderEmailPreviews, renderStored } from "./registry";
export { passwordResetEmail, type PasswordResetData } from "./password-reset";
export { voucherEmail, type VoucherMailData } from "./voucher";
export { enrollmentProofEmail, type EnrollmentProofData } from "./enrollment-proof";
export { schoolRegistrationEmail, type SchoolRegistrationData } from "./school-registration";
export { contactMessageEmail } from "./contact-message";
