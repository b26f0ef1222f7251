import { schema } from "@elo/db";
import { schoolMessages, type PlanType } from "@elo/shared";
import { and, eq } from "drizzle-orm";
import { AppError, pgErrorCode } from "../../trpc/errors";
import { activePlan } from "../school/benefits.handler";
import type { StaffContext } from "../school/staff-context";

const { subscriptions } = schema;

/** The school's active plan, or null. */
export const currentPlan = ({ ctx }: { ctx: StaffContext }) => activePlan(ctx);

/**
 * Chooses a plan for the school: changes the active subscription's plan, or creates one.
 * Silver and Gold are free for a limited time, so they activate at once.
 */
export async function choosePlan({ ctx, input }: { ctx: StaffContext; input: { plan: PlanType } }) {
  const now = ctx.clock.now();
  const attempt = () =>
    ctx.db.transaction(async (db) => {
      const [changed] = await db
        .update(subscriptions)
        .set({ planType: input.plan, userId: ctx.user.id, updatedAt: now })
        .where(and(eq(subscriptions.schoolId, ctx.schoolId), eq(subscriptions.status, "active")))
        .returning({ id: subscriptions.id });
      if (changed) return { plan: input.plan, changed: true };
      await db.insert(subscriptions).values({ schoolId: ctx.schoolId, userId: ctx.user.id, planType: input.plan, status: "active", startedAt: now, updatedAt: now });
      return { plan: input.plan, changed: false };
    });
  try {
    return await attempt();
  } catch (error) {
    // Two staff members activated at the same moment: the other insert won, so this becomes a change.
    if (pgErrorCode(error) === "23505") return attempt();
    if (error instanceof AppError) throw error;
    throw new AppError("INTERNAL_SERVER_ERROR", schoolMessages.planSaveError);
  }
}
