import { schema } from "@elo/db";
import { adminQueueMessages } from "@elo/shared";
import { and, asc, eq, max, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { AppError, pgErrorCode } from "../../trpc/errors";
import type { AdminCtx } from "./admin.types";

const { schoolMemberships: m, users, profiles, schools } = schema;
const earlier = alias(m, "earlier");

/**
 * Pending staff requests, oldest first: who, which school, which position, when, and when an
 * earlier request of the same user for the same school was refused (a repeat asks again after a refusal).
 */
export async function pendingMembershipsHandler({ ctx }: { ctx: AdminCtx }) {
  return ctx.db
    .select({
      id: m.id,
      userId: m.userId,
      email: users.email,
      fullName: profiles.fullName,
      schoolId: m.schoolId,
      schoolName: schools.name,
      schoolCity: schools.city,
      schoolUf: schools.uf,
      position: m.position,
      requestedAt: m.requestedAt,
      refusedBefore: sql`(${ctx.db
        .select({ at: max(sql`coalesce(${earlier.decidedAt}, ${earlier.requestedAt})`) })
        .from(earlier)
        .where(and(eq(earlier.userId, m.userId), eq(earlier.schoolId, m.schoolId), eq(earlier.status, "rejected")))})`.mapWith(m.requestedAt) as SQL<Date | null>,
    })
    .from(m)
    .innerJoin(users, eq(users.id, m.userId))
    .leftJoin(profiles, eq(profiles.userId, m.userId))
    .innerJoin(schools, eq(schools.id, m.schoolId))
    .where(eq(m.status, "pending"))
    .orderBy(asc(m.requestedAt), asc(m.id))
    .limit(200);
}

/** Approves or rejects a pending request; approval links the user's profile to the school. */
export async function decideMembershipHandler({ ctx, input, approve }: { ctx: AdminCtx; input: { id: string }; approve: boolean }) {
  const now = ctx.clock.now();
  try {
    return await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .update(m)
        .set({ status: approve ? "approved" : "rejected", decidedAt: now, decidedBy: ctx.user.id })
        .where(and(eq(m.id, input.id), eq(m.status, "pending")))
        .returning({ userId: m.userId, schoolId: m.schoolId });
      if (!row) throw new AppError("CONFLICT", { title: adminQueueMessages.decisionError, description: adminQueueMessages.membershipNotPending });
      if (approve) {
        const [school] = await tx.select({ name: schools.name }).from(schools).where(eq(schools.id, row.schoolId));
        await tx.update(profiles).set({ schoolId: row.schoolId, schoolName: school?.name ?? null, updatedAt: now }).where(eq(profiles.userId, row.userId));
      }
      return { id: input.id, status: approve ? ("approved" as const) : ("rejected" as const) };
    });
  } catch (error) {
    if (pgErrorCode(error) === "23505") throw new AppError("CONFLICT", { title: adminQueueMessages.decisionError, description: adminQueueMessages.membershipConflict });
    throw error;
  }
}
