import { pgEnum } from "drizzle-orm/pg-core";
import {
  CANCEL_REASONS,
  CLASS_PERIODS,
  DISCOUNT_SCOPES,
  DISCOUNT_STATUSES,
  DISCOUNT_VALIDITIES,
  ENROLLMENT_PERIODS,
  MEMBERSHIP_STATUSES,
  PLAN_TYPES,
  PROOF_REFUSAL_REASONS,
  PROOF_STATUSES,
  PROFILE_TYPES,
  ROLES,
  TEACHING_STAGES,
  VOUCHER_STATUSES,
  WAITLIST_STATUSES,
} from "@elo/shared";

export const profileType = pgEnum("profile_type", PROFILE_TYPES);
export const appRole = pgEnum("app_role", ROLES);
export const membershipStatus = pgEnum("membership_status", MEMBERSHIP_STATUSES);
export const enrollmentPeriod = pgEnum("enrollment_period", ENROLLMENT_PERIODS);
export const teachingStage = pgEnum("teaching_stage", TEACHING_STAGES);
export const classPeriod = pgEnum("class_period", CLASS_PERIODS);
export const discountScope = pgEnum("discount_scope", DISCOUNT_SCOPES);
export const discountValidity = pgEnum("discount_validity", DISCOUNT_VALIDITIES);
export const discountStatus = pgEnum("discount_status", DISCOUNT_STATUSES);
export const voucherStatus = pgEnum("voucher_status", VOUCHER_STATUSES);
export const cancelReason = pgEnum("cancel_reason", CANCEL_REASONS);
export const waitlistStatus = pgEnum("waitlist_status", WAITLIST_STATUSES);
export const planType = pgEnum("plan_type", PLAN_TYPES);
export const outboxStatus = pgEnum("outbox_status", ["pending", "sent", "failed"]);
export const schoolOrigin = pgEnum("school_origin", ["admin", "csv", "parent_request", "institution", "seed"]);
export const proofStatus = pgEnum("proof_status", PROOF_STATUSES);
export const proofRefusalReason = pgEnum("proof_refusal_reason", PROOF_REFUSAL_REASONS);
