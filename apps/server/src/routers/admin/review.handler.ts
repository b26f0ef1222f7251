import { schema } from "@elo/db";
import { adminQueueMessages } from "@elo/shared";
import { and, eq } from "drizzle-orm";
import { AppError } from "../../trpc/errors";
import type { AdminCtx } from "./admin.types";

const { schools } = schema;

/**
 * Takes a school a parent created out of the review queue by making it an ordinary school
 * (`origin` parent_request → admin). Conditional on the current origin, so a second click or a
 * second admin is told it was already reviewed instead of silently succeeding.
 */
export async function markReviewedHandler({ ctx, input }: { ctx: AdminCtx; input: { id: string } }) {
  const [row] = await ctx.db
    .update(schools)
    .set({ origin: "admin", updatedAt: ctx.clock.now() })
    .where(and(eq(schools.id, input.id), eq(schools.origin, "parent_request")))
    .returning({ id: schools.id, origin: schools.origin });
  if (row) return row;
  const [exists] = await ctx.db.select({ id: schools.id }).from(schools).where(eq(schools.id, input.id));
  if (!exists) throw new AppError("NOT_FOUND", { title: adminQueueMessages.reviewError, description: adminQueueMessages.schoolNotFound });
  throw new AppError("CONFLICT", { title: adminQueueMessages.reviewError, description: adminQueueMessages.alreadyReviewed });
}
