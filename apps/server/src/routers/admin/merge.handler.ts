import { schema } from "@elo/db";
import { adminQueueMessages } from "@elo/shared";
import { and, eq, inArray } from "drizzle-orm";
import { AppError } from "../../trpc/errors";
import type { AdminCtx } from "./admin.types";
import { isStoredLogo } from "./logo-url";

const { schools, profiles, enrollments, discounts, discountTransactions, schoolMemberships, subscriptions, enrollmentProofs, enrollmentProofViews, erasedAccessLog } = schema;

/**
 * Folds a duplicate school (typically one a parent typed in) into the school to keep: profiles,
 * enrollments (and their proofs), benefits, vouchers, staff and plan move over in one transaction, then the duplicate
 * is deleted.
 */
export async function mergeSchoolsHandler({ ctx, input }: { ctx: AdminCtx; input: { sourceId: string; targetId: string } }) {
  const now = ctx.clock.now();
  const logo = await ctx.db.transaction(async (tx) => {
    // Lock both rows in a fixed order so two merges cannot deadlock.
    const locked = await tx
      .select({ id: schools.id, name: schools.name, logoUrl: schools.logoUrl })
      .from(schools)
      .where(inArray(schools.id, [input.sourceId, input.targetId]))
      .orderBy(schools.id)
      .for("update");
    const source = locked.find((s) => s.id === input.sourceId);
    const target = locked.find((s) => s.id === input.targetId);
    if (!source || !target) throw new AppError("NOT_FOUND", { title: adminQueueMessages.mergeError, description: adminQueueMessages.schoolNotFound });

    await tx.update(profiles).set({ schoolId: target.id, schoolName: target.name, updatedAt: now }).where(eq(profiles.schoolId, source.id));
    await tx.update(enrollments).set({ schoolId: target.id, institutionName: target.name, updatedAt: now }).where(eq(enrollments.schoolId, source.id));
    await tx.update(discounts).set({ schoolId: target.id, updatedAt: now }).where(eq(discounts.schoolId, source.id));
    await tx.update(discountTransactions).set({ schoolId: target.id }).where(eq(discountTransactions.schoolId, source.id));
    await tx.update(schoolMemberships).set({ schoolId: target.id }).where(eq(schoolMemberships.schoolId, source.id));
    await tx.update(enrollmentProofs).set({ schoolId: target.id }).where(eq(enrollmentProofs.schoolId, source.id));
    await tx.update(enrollmentProofViews).set({ viewerSchoolId: target.id }).where(eq(enrollmentProofViews.viewerSchoolId, source.id));
    await tx.update(erasedAccessLog).set({ viewerSchoolId: target.id }).where(eq(erasedAccessLog.viewerSchoolId, source.id));
    const [targetPlan] = await tx
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(and(eq(subscriptions.schoolId, target.id), eq(subscriptions.status, "active")));
    // The kept school's own plan wins; otherwise the duplicate's plan moves over.
    if (targetPlan) await tx.delete(subscriptions).where(eq(subscriptions.schoolId, source.id));
    else await tx.update(subscriptions).set({ schoolId: target.id, updatedAt: now }).where(eq(subscriptions.schoolId, source.id));
    await tx.delete(schools).where(eq(schools.id, source.id));
    if (!target.logoUrl && source.logoUrl) {
      await tx.update(schools).set({ logoUrl: source.logoUrl, updatedAt: now }).where(eq(schools.id, target.id));
      return null;
    }
    return source.logoUrl;
  });
  if (isStoredLogo(logo)) await ctx.storage.remove("school_logos", logo).catch((err) => ctx.logger.warn({ err }, "logo file left behind"));
  return { ok: true as const, targetId: input.targetId };
}
