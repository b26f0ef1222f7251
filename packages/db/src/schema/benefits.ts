import { sql } from "drizzle-orm";
import { boolean, check, date, index, integer, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { cancelReason, classPeriod, discountScope, discountStatus, discountValidity, teachingStage, voucherStatus } from "./enums";
import { categories, modalities } from "./reference";
import { schools } from "./schools";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
const money = (name: string) => numeric(name, { precision: 10, scale: 2, mode: "number" });

/** A benefit: a discount on a class's monthly fee, offered by a school. */
export const discounts = pgTable(
  "discounts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    schoolId: uuid("school_id").notNull().references(() => schools.id, { onDelete: "restrict" }),
    /** Who created it. */
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    teachingStage: teachingStage("teaching_stage").notNull(),
    categoryId: integer("category_id").notNull().references(() => categories.id),
    modalityId: integer("modality_id").notNull().references(() => modalities.id),
    className: text("class_name").notNull(),
    classPeriod: classPeriod("class_period").notNull(),
    discountScope: discountScope("discount_scope").notNull(),
    monthlyFee: money("monthly_fee").notNull(),
    discountPercentage: numeric("discount_percentage", { precision: 5, scale: 2, mode: "number" }).notNull(),
    /** Always computed by the server from fee and percentage. */
    discountedFee: money("discounted_fee").notNull(),
    discountValidity: discountValidity("discount_validity").notNull(),
    /** Remaining slots. */
    numberOfStudents: integer("number_of_students").notNull(),
    /** Days a reserved voucher has to be presented, counted from the claim; null = until its validity ends (decision 121). */
    holdDays: integer("hold_days"),
    status: discountStatus("status").notNull().default("active"),
    /** 'Exigir matrícula verificada': only parents whose main enrollment is verified and current may claim. */
    requiresVerifiedEnrollment: boolean("requires_verified_enrollment").notNull().default(false),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    check("discounts_slots_nonnegative", sql`${t.numberOfStudents} >= 0`),
    check("discounts_percentage_range", sql`${t.discountPercentage} >= 0 and ${t.discountPercentage} <= 100`),
    check("discounts_hold_days_range", sql`${t.holdDays} is null or ${t.holdDays} between 1 and 365`),
    check("discounts_fee_nonnegative", sql`${t.monthlyFee} >= 0 and ${t.discountedFee} >= 0`),
    index("discounts_school_idx").on(t.schoolId, t.createdAt),
  ],
);

/** A reservation: the voucher a parent shows at the school office. */
export const discountTransactions = pgTable(
  "discount_transactions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Null once the parent deleted the account: the school keeps its counts. */
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    discountId: uuid("discount_id").notNull().references(() => discounts.id, { onDelete: "restrict" }),
    schoolId: uuid("school_id").notNull().references(() => schools.id, { onDelete: "restrict" }),
    voucherCode: text("voucher_code").notNull(),
    status: voucherStatus("status").notNull().default("reservado"),
    claimedAt: ts("claimed_at").notNull().defaultNow(),
    validUntil: date("valid_until", { mode: "string" }).notNull(),
    redeemedAt: ts("redeemed_at"),
    redeemedBy: uuid("redeemed_by").references(() => users.id, { onDelete: "set null" }),
    /** When it left `reservado` without being used (expired or cancelled): its slot went back then. */
    endedAt: ts("ended_at"),
    /** Set exactly when the status is `cancelado` (decision 122). */
    cancelReason: cancelReason("cancel_reason"),
    /** Who cancelled: school staff, or the parent who gave the voucher up. */
    cancelledBy: uuid("cancelled_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    uniqueIndex("discount_transactions_voucher_uq").on(t.voucherCode),
    check("discount_transactions_voucher_format", sql`${t.voucherCode} ~ '^[1-9][0-9]{3}-[A-Z]{4}$'`),
    // Compared as text: a new enum value cannot be used in the migration that adds it.
    check("discount_transactions_cancel_reason", sql`(${t.cancelReason} is not null) = (${t.status}::text = 'cancelado')`),
    index("discount_transactions_user_idx").on(t.userId, t.claimedAt),
    index("discount_transactions_school_idx").on(t.schoolId, t.claimedAt),
    index("discount_transactions_discount_idx").on(t.discountId),
    // The expiry job's candidates (docs/decisions/120): only reserved vouchers, oldest end date first.
    index("discount_transactions_reserved_idx").on(t.validUntil).where(sql`status = 'reservado'`),
  ],
);

/** One claim per parent and benefit. */
export const claimedDiscounts = pgTable(
  "claimed_discounts",
  {
    userId: uuid("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    discountId: uuid("discount_id").notNull().references(() => discounts.id, { onDelete: "cascade" }),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.discountId] })],
);
