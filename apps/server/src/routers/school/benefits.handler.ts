import { schema } from "@elo/db";
import { discountedFee, PLANS, schoolMessages, toHundredths, type BenefitInput } from "@elo/shared";
import { and, desc, eq, sql } from "drizzle-orm";
import { AppError } from "../../trpc/errors";
import { offerFreeSlots } from "../../waitlist/offers";
import type { StaffContext } from "./staff-context";

const { discounts, discountTransactions, categories, modalities, subscriptions } = schema;

/** The school's benefits, newest first, with category and modality names and how many vouchers each issued. */
export function listBenefits({ ctx }: { ctx: StaffContext }) {
  const vouchers = ctx.db
    .select({ discountId: discountTransactions.discountId, n: sql<number>`count(*)::int`.as("n") })
    .from(discountTransactions)
    .where(eq(discountTransactions.schoolId, ctx.schoolId))
    .groupBy(discountTransactions.discountId)
    .as("v");
  return ctx.db
    .select({
      id: discounts.id,
      teachingStage: discounts.teachingStage,
      categoryId: discounts.categoryId,
      categoryName: categories.name,
      modalityId: discounts.modalityId,
      modalityName: modalities.name,
      className: discounts.className,
      classPeriod: discounts.classPeriod,
      discountScope: discounts.discountScope,
      monthlyFee: discounts.monthlyFee,
      discountPercentage: discounts.discountPercentage,
      discountedFee: discounts.discountedFee,
      discountValidity: discounts.discountValidity,
      numberOfStudents: discounts.numberOfStudents,
      holdDays: discounts.holdDays,
      status: discounts.status,
      requiresVerifiedEnrollment: discounts.requiresVerifiedEnrollment,
      createdAt: discounts.createdAt,
      voucherCount: sql<number>`coalesce(${vouchers.n}, 0)::int`,
    })
    .from(discounts)
    .innerJoin(categories, eq(categories.id, discounts.categoryId))
    .innerJoin(modalities, eq(modalities.id, discounts.modalityId))
    .leftJoin(vouchers, eq(vouchers.discountId, discounts.id))
    .where(eq(discounts.schoolId, ctx.schoolId))
    .orderBy(desc(discounts.createdAt), desc(discounts.id));
}

/** The school's active plan, or null. */
export async function activePlan(ctx: Pick<StaffContext, "db" | "schoolId">) {
  const [row] = await ctx.db
    .select({ planType: subscriptions.planType, startedAt: subscriptions.startedAt, updatedAt: subscriptions.updatedAt })
    .from(subscriptions)
    .where(and(eq(subscriptions.schoolId, ctx.schoolId), eq(subscriptions.status, "active")));
  return row ?? null;
}

/** The named columns a benefit form writes; the discounted fee is always the server's. */
async function benefitColumns(ctx: StaffContext, input: BenefitInput) {
  const [modality] = await ctx.db
    .select({ id: modalities.id })
    .from(modalities)
    .where(and(eq(modalities.id, input.modalityId), eq(modalities.categoryId, input.categoryId)));
  if (!modality) throw new AppError("BAD_REQUEST", { title: schoolMessages.requiredFieldsTitle, description: schoolMessages.requiredFieldsDescription });
  return {
    teachingStage: input.teachingStage,
    categoryId: input.categoryId,
    modalityId: input.modalityId,
    className: input.className,
    classPeriod: input.classPeriod,
    discountScope: input.discountScope,
    monthlyFee: input.monthlyFee,
    discountPercentage: input.discountPercentage,
    discountedFee: discountedFee(input.monthlyFee, input.discountPercentage),
    discountValidity: input.discountValidity,
    numberOfStudents: input.numberOfStudents,
    holdDays: input.holdDays ?? null,
    requiresVerifiedEnrollment: input.requiresVerifiedEnrollment ?? false,
  };
}

/** Creates a benefit: needs an active Silver or Gold plan. */
export async function createBenefit({ ctx, input }: { ctx: StaffContext; input: BenefitInput }) {
  const plan = await activePlan(ctx);
  if (!plan || !PLANS[plan.planType].publishes) throw new AppError("FORBIDDEN", { title: schoolMessages.discountCreateError, description: schoolMessages.planRequired }, { plan: "required" });
  const values = await benefitColumns(ctx, input);
  const now = ctx.clock.now();
  const [row] = await ctx.db
    .insert(discounts)
    .values({ ...values, schoolId: ctx.schoolId, userId: ctx.user.id, status: "active", createdAt: now, updatedAt: now })
    .returning({ id: discounts.id, discountedFee: discounts.discountedFee });
  return row!;
}

const notFound = (title: string) => new AppError("NOT_FOUND", { title, description: schoolMessages.benefitNotFound });

/** Same amount to the centavo (numeric columns come back as numbers; the form may send 300 or 300.0). */
const sameCents = (a: number, b: number) => toHundredths(a) === toHundredths(b);

/**
 * Edits a benefit of this school. Vouchers read their terms from the benefit row, so once one is
 * issued the fee, percentage, validity and hold are frozen (docs/decisions/043, 121); slots, names,
 * stage, period and scope may still change. An absent `holdDays` keeps the current hold. The row is locked first so a claim cannot slip in between
 * the voucher check and the update.
 */
export async function updateBenefit({ ctx, input }: { ctx: StaffContext; input: { id: string; values: BenefitInput } }) {
  const values = await benefitColumns(ctx, input.values);
  return ctx.db.transaction(async (tx) => {
    const [current] = await tx
      .select({ monthlyFee: discounts.monthlyFee, discountPercentage: discounts.discountPercentage, discountValidity: discounts.discountValidity, holdDays: discounts.holdDays })
      .from(discounts)
      .where(and(eq(discounts.id, input.id), eq(discounts.schoolId, ctx.schoolId)))
      .for("update");
    if (!current) throw notFound(schoolMessages.discountUpdateError);
    if (input.values.holdDays === undefined) values.holdDays = current.holdDays;
    const termsChanged =
      !sameCents(current.monthlyFee, values.monthlyFee) ||
      !sameCents(current.discountPercentage, values.discountPercentage) ||
      current.discountValidity !== values.discountValidity ||
      current.holdDays !== values.holdDays;
    if (termsChanged) {
      const [voucher] = await tx.select({ id: discountTransactions.id }).from(discountTransactions).where(eq(discountTransactions.discountId, input.id)).limit(1);
      if (voucher) throw new AppError("CONFLICT", { title: schoolMessages.discountUpdateError, description: schoolMessages.termsLockedByVouchers }, { terms: "locked" });
    }
    const [row] = await tx
      .update(discounts)
      .set({ ...values, updatedAt: ctx.clock.now() })
      .where(and(eq(discounts.id, input.id), eq(discounts.schoolId, ctx.schoolId)))
      .returning({ id: discounts.id, discountedFee: discounts.discountedFee });
    // Slots raised on a sold-out benefit go to its waitlist first (decision 123).
    await offerFreeSlots(ctx, tx, input.id);
    return row!;
  });
}

/** Deletes a benefit that never issued a voucher; one with vouchers can only be paused. */
export async function deleteBenefit({ ctx, input }: { ctx: StaffContext; input: { id: string } }) {
  return ctx.db.transaction(async (tx) => {
    const [benefit] = await tx
      .select({ id: discounts.id })
      .from(discounts)
      .where(and(eq(discounts.id, input.id), eq(discounts.schoolId, ctx.schoolId)))
      .for("update");
    if (!benefit) throw notFound(schoolMessages.discountDeleteError);
    const [voucher] = await tx.select({ id: discountTransactions.id }).from(discountTransactions).where(eq(discountTransactions.discountId, input.id)).limit(1);
    if (voucher) throw new AppError("CONFLICT", { title: schoolMessages.discountDeleteError, description: schoolMessages.deleteBlockedByVouchers });
    await tx.delete(discounts).where(eq(discounts.id, input.id));
    return { ok: true as const };
  });
}

/**
 * Pauses (hides from the marketplace) or reactivates a benefit of this school. A paused benefit
 * makes no waitlist offers; reactivating offers its free slots to the line (decision 123).
 */
export async function setBenefitStatus(ctx: StaffContext, id: string, status: "active" | "paused") {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(discounts)
      .set({ status, updatedAt: ctx.clock.now() })
      .where(and(eq(discounts.id, id), eq(discounts.schoolId, ctx.schoolId)))
      .returning({ id: discounts.id, status: discounts.status });
    if (!row) throw notFound(status === "paused" ? schoolMessages.pauseErrorTitle : schoolMessages.reactivateErrorTitle);
    await offerFreeSlots(ctx, tx, id);
    return row;
  });
}
