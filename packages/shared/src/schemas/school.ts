import { z } from "zod";
import { CANCEL_REASONS, CLASS_PERIODS, DISCOUNT_SCOPES, DISCOUNT_VALIDITIES, LIMITS, PLAN_TYPES, TEACHING_STAGES, VOUCHER_STATUSES } from "../constants";
import { formatMessages } from "../messages/common";
import { schoolMessages } from "../messages/school";
import { id, optionalCep, optionalPhone, optionalText, text, twoDecimals, uuid } from "./fields";

const required = schoolMessages.requiredFieldsDescription;

/** /meus-dados (institution view): name, WhatsApp, position and the school to link to. */
export const institutionProfileInput = z
  .object({
    fullName: text().trim().min(1, formatMessages.nameRequired).max(LIMITS.nameMax, formatMessages.tooLong(LIMITS.nameMax)),
    phone: optionalPhone,
    position: optionalText(100),
    /** The school to request membership of; null keeps the current link. */
    schoolId: uuid.nullish().transform((v) => v ?? null),
  })
  .strict();
export type InstitutionProfileInput = z.input<typeof institutionProfileInput>;

/** /dados-da-escola. */
export const schoolDataInput = z
  .object({
    name: text().trim().min(1, schoolMessages.logoNeedsName).max(200, formatMessages.tooLong(200)),
    stateId: id,
    cityId: id,
    neighborhoodId: id,
    categoryId: id,
    modalityId: id,
    phone: optionalPhone,
    whatsapp: optionalPhone,
    address: optionalText(255),
    cep: optionalCep,
  })
  .strict();
export type SchoolDataInput = z.input<typeof schoolDataInput>;

/** The benefit form (spec 2 §5): every field required. The discounted fee is never an input. */
export const benefitInput = z
  .object({
    teachingStage: z.enum(TEACHING_STAGES, required),
    categoryId: id,
    modalityId: id,
    className: text().trim().min(1, required).max(120, formatMessages.tooLong(120)),
    classPeriod: z.enum(CLASS_PERIODS, required),
    discountScope: z.enum(DISCOUNT_SCOPES, required),
    monthlyFee: twoDecimals(required, schoolMessages.feeTooPrecise).positive(required).max(99_999_999.99),
    discountPercentage: twoDecimals(required, schoolMessages.percentageTooPrecise).min(0, required).max(100, required),
    discountValidity: z.enum(DISCOUNT_VALIDITIES, required),
    numberOfStudents: z.number(required).int(required).min(1, required).max(100_000),
    /** Days to present a reserved voucher; null = no limit; absent = no limit on create, unchanged on update. */
    holdDays: z.number().int(schoolMessages.holdDaysRange).min(1, schoolMessages.holdDaysRange).max(LIMITS.holdDaysMax, schoolMessages.holdDaysRange).nullish(),
    /** 'Exigir matrícula verificada' (issue 21): off keeps the spec's rule. */
    requiresVerifiedEnrollment: z.boolean().default(false),
  })
  .strict();
export type BenefitInput = z.input<typeof benefitInput>;

export const benefitUpdateInput = z.object({ id: uuid, values: benefitInput }).strict();
export const benefitIdInput = z.object({ id: uuid }).strict();

/** A voucher code as typed at the school office: NNNN-LLLL, case and spaces forgiven. */
export const voucherCodeInput = z
  .object({
    code: text()
      .trim()
      .toUpperCase()
      .transform((v) => v.replace(/\s+/g, ""))
      .pipe(text().regex(/^\d{4}-?[A-Z]{4}$/, schoolMessages.voucherNotFound))
      .transform((v) => (v.includes("-") ? v : `${v.slice(0, 4)}-${v.slice(4)}`)),
  })
  .strict();

/** The desk cancels a reserved voucher, with one of the short list's reasons (decision 122). */
export const voucherCancelInput = z.object({ code: voucherCodeInput.shape.code, reason: z.enum(CANCEL_REASONS) }).strict();
export type VoucherCancelInput = z.infer<typeof voucherCancelInput>;

export const voucherListInput = z
  .object({ status: z.enum(VOUCHER_STATUSES).nullish().transform((v) => v ?? null) })
  .strict()
  .optional();

export const planChoiceInput = z.object({ plan: z.enum(PLAN_TYPES) }).strict();

/** 'Mostrar a escola nas páginas públicas' on /dados-da-escola (issue 26). */
export const schoolPublicPageInput = z.object({ publicPage: z.boolean() }).strict();
export type SchoolPublicPageInput = z.input<typeof schoolPublicPageInput>;
