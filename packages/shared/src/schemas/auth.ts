import { z } from "zod";
import { LIMITS, PROFILE_TYPES } from "../constants";
import { authMessages } from "../messages/auth";
import { email, PG_INT_MAX, text } from "./fields";

export const loginInput = z
  .object({
    email: text().trim().toLowerCase().max(LIMITS.emailMax, authMessages.emailInvalid).pipe(z.email(authMessages.emailInvalid)),
    // The same maximum as signup and reset: no account can have a longer password, and the message names it.
    password: text().min(1, authMessages.passwordRequired).max(LIMITS.passwordMax, authMessages.passwordMax),
  })
  .strict();
export type LoginInput = z.infer<typeof loginInput>;

/** The spec's `school` profile type is accepted and stored as `institution`. */
export const profileTypeInput = z.preprocess((v) => (v === "school" ? "institution" : v), z.enum(PROFILE_TYPES));

export const signupInput = z
  .object({
    profileType: profileTypeInput,
    fullName: text().trim().min(1, authMessages.nameRequired).max(LIMITS.nameMax, authMessages.nameMax),
    email,
    password: text().min(LIMITS.passwordMin, authMessages.passwordMin).max(LIMITS.passwordMax, authMessages.passwordMax),
    stateId: z.number().int().positive(authMessages.locationRequired).max(PG_INT_MAX, authMessages.locationRequired),
    cityId: z.number().int().positive(authMessages.locationRequired).max(PG_INT_MAX, authMessages.locationRequired),
    neighborhoodId: z.number().int().positive(authMessages.locationRequired).max(PG_INT_MAX, authMessages.locationRequired),
    termsAccepted: z.literal(true, authMessages.consentsRequired),
    dataProcessingConsent: z.literal(true, authMessages.consentsRequired),
    marketingConsent: z.boolean().default(false),
    /** The benefit a visitor chose on a public page ('Quero este desconto'): the confirmation link leads back to it. */
    benefitId: z.uuid().optional(),
  })
  .strict();
export type SignupInput = z.infer<typeof signupInput>;

export const forgotPasswordInput = z
  .object({ email: text().trim().toLowerCase().max(LIMITS.emailMax, authMessages.emailInvalidRecovery).pipe(z.email(authMessages.emailInvalidRecovery)) })
  .strict();

export const resetPasswordInput = z
  .object({
    token: text().min(1).max(200),
    password: text().min(LIMITS.passwordMin, authMessages.resetPasswordMin).max(LIMITS.passwordMax, authMessages.passwordMax),
  })
  .strict();

export const checkResetTokenInput = z.object({ token: text().min(1).max(200) }).strict();

/** The /reset-password form: new password and its confirmation. */
export const resetPasswordForm = z
  .object({
    password: text().min(LIMITS.passwordMin, authMessages.resetPasswordMin).max(LIMITS.passwordMax, authMessages.passwordMax),
    confirmPassword: text(),
  })
  .refine((v) => v.password === v.confirmPassword, { message: authMessages.passwordsDontMatch, path: ["confirmPassword"] });

/** The token of an e-mail confirmation link (/confirmar-email?token=...). */
export const confirmEmailInput = z.object({ token: text().min(1).max(200) }).strict();
