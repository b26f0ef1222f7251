import { waitlistMessages as w, type WaitlistBenefitInput } from "@elo/shared";
import { sql } from "drizzle-orm";
import { AppError } from "../../trpc/errors";
import { endWaitlistPlace } from "../../waitlist/offers";
import type { ParentContext } from "./context";

/**
 * waitlist.leave: the parent leaves a benefit's line; leaving while holding an offer declines it,
 * and the slot passes to the next in line in the same transaction (decision 123).
 */
export async function leaveWaitlist({ ctx, input }: { ctx: ParentContext; input: WaitlistBenefitInput }) {
  const target = sql`
    select id, status as was from waitlist_entries
    where discount_id = ${input.discountId} and user_id = ${ctx.user.id} and status in ('waiting', 'offered')
    for update`;
  const ended = await ctx.db.transaction((tx) => endWaitlistPlace(ctx, tx, target, "left"));
  if (!ended) throw new AppError("NOT_FOUND", { title: w.leaveError, description: w.notWaiting });
  return { discountId: input.discountId, declinedOffer: ended.was === "offered" };
}
