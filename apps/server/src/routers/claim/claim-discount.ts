import { schema, type Database } from "@elo/db";
import { LIMITS, type DiscountValidity } from "@elo/shared";
import { and, eq, sql } from "drizzle-orm";
import { pgConstraint, queryRows } from "../../db/raw";
import { voucherValidUntil } from "../../lib/calendar";
import type { Clock } from "../../lib/clock";
import { pgErrorCode } from "../../trpc/errors";
import { admittedBy } from "../marketplace/visibility";
import { alreadyClaimed, incompleteProfile, proofMissing, transactionFailed, unavailable } from "./errors";
import { generateVoucherCode } from "./voucher";

const VOUCHER_INDEX = "discount_transactions_voucher_uq";

export interface ClaimedBenefit {
  transactionId: string;
  voucherCode: string;
  validUntil: string;
  claimedAt: Date;
  discount: {
    className: string;
    discountPercentage: number;
    monthlyFee: number;
    discountedFee: number;
    discountValidity: DiscountValidity;
    schoolName: string;
  };
  parentName: string | null;
}

interface TakenSlot {
  id: string;
  school_id: string;
  class_name: string;
  discount_percentage: string | number;
  monthly_fee: string | number;
  discounted_fee: string | number;
  discount_validity: DiscountValidity;
  school_name: string;
}

/**
 * The claim of spec 1 §4 as ONE transaction: eligibility, the (user, benefit) key, the slot taken by
 * a conditional UPDATE that re-checks every marketplace rule, then the voucher. Concurrent claims
 * queue on the benefit's row lock, so no more slots are taken than exist.
 */
export async function claimDiscount(
  deps: { db: Database; clock: Clock },
  userId: string,
  discountId: string,
  opts: { nextVoucher?: () => string } = {},
): Promise<ClaimedBenefit> {
  const nextVoucher = opts.nextVoucher ?? generateVoucherCode;
  const claimedAt = deps.clock.now();

  return deps.db.transaction(async (tx) => {
    const [profile] = await tx
      .select({
        profileCompleted: schema.profiles.profileCompleted,
        proofSubmitted: schema.profiles.enrollmentProofSubmitted,
        fullName: schema.profiles.fullName,
        phone: schema.profiles.phone,
        relationshipType: schema.profiles.relationshipType,
        studentName: schema.profiles.studentName,
        schoolId: schema.profiles.schoolId,
      })
      .from(schema.profiles)
      .where(and(eq(schema.profiles.userId, userId), eq(schema.profiles.profileType, "parent")));
    if (!profile) throw incompleteProfile();
    const filled = [profile.fullName, profile.phone, profile.relationshipType, profile.studentName, profile.schoolId].every((v) => v !== null && v !== "");
    if (!profile.profileCompleted || !filled) throw incompleteProfile();
    if (!profile.proofSubmitted) throw proofMissing();

    // The (user, benefit) key first: a parent's parallel duplicates wait here and fail on 23505
    // without ever touching the benefit's slots.
    try {
      await tx.insert(schema.claimedDiscounts).values({ userId, discountId, createdAt: claimedAt });
    } catch (error) {
      const code = pgErrorCode(error);
      if (code === "23505") throw alreadyClaimed();
      if (code === "23503") throw unavailable();
      throw error;
    }

    // One conditional UPDATE takes the slot: it only matches while slots remain, the benefit is
    // active and the marketplace admits this parent. Under READ COMMITTED a waiting UPDATE
    // re-reads the row after the lock holder commits, so the count can never go below 0 or be
    // decremented from a stale value.
    const [slot] = await queryRows<TakenSlot>(
      tx,
      sql`
      update discounts d
      set number_of_students = d.number_of_students - 1, updated_at = ${claimedAt.toISOString()}::timestamptz
      from schools s, profiles p, schools ms
      where d.id = ${discountId}
        and d.number_of_students > 0
        and d.status = 'active'
        and s.id = d.school_id
        and p.user_id = ${userId} and p.profile_type = 'parent'
        and ms.id = p.school_id
        and ${admittedBy(userId)}
      returning d.id, d.school_id, d.class_name, d.discount_percentage, d.monthly_fee, d.discounted_fee,
        d.discount_validity, s.name as school_name`,
    );
    if (!slot) throw unavailable();

    const validUntil = voucherValidUntil(slot.discount_validity, claimedAt);
    for (let attempt = 0; attempt <= LIMITS.voucherRetries; attempt++) {
      const voucherCode = nextVoucher();
      try {
        // A savepoint: a voucher collision undoes only this insert, not the claim.
        const [row] = await tx.transaction((sp) =>
          sp
            .insert(schema.discountTransactions)
            .values({ userId, discountId, schoolId: slot.school_id, voucherCode, claimedAt, validUntil })
            .returning({ id: schema.discountTransactions.id }),
        );
        if (!row) throw transactionFailed();
        return {
          transactionId: row.id,
          voucherCode,
          validUntil,
          claimedAt,
          parentName: profile.fullName,
          discount: {
            className: slot.class_name,
            discountPercentage: Number(slot.discount_percentage),
            monthlyFee: Number(slot.monthly_fee),
            discountedFee: Number(slot.discounted_fee),
            discountValidity: slot.discount_validity,
            schoolName: slot.school_name,
          },
        };
      } catch (error) {
        if (pgErrorCode(error) === "23505" && pgConstraint(error) === VOUCHER_INDEX) continue;
        throw error;
      }
    }
    throw transactionFailed();
  });
}
