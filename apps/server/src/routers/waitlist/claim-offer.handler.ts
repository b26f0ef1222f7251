import type { Database } from "@elo/db";
import { waitlistMessages as w, type WaitlistBenefitInput } from "@elo/shared";
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/raw";
import type { Clock } from "../../lib/clock";
import { AppError, pgErrorCode } from "../../trpc/errors";
import { claimDiscount, type ClaimedBenefit } from "../claim/claim-discount";
import { transactionFailed } from "../claim/errors";
import { renderVoucherEmail } from "../claim/voucher-mail";
import type { ParentContext } from "./context";

/**
 * Runs the ordinary claim inside the caller's transaction, in a savepoint: a voucher-code collision
 * aborts the savepoint (not the transaction) and the claim is simply tried again.
 */
async function claimInTransaction(tx: Database, clock: Clock, userId: string, discountId: string): Promise<ClaimedBenefit> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await tx.transaction((savepoint) => claimDiscount({ db: savepoint, clock }, userId, discountId));
    } catch (error) {
      if (pgErrorCode(error) !== "25P02") throw error;
    }
  }
  throw transactionFailed();
}

/**
 * waitlist.claimOffer: the parent takes the slot offered to them (decision 123), in one
 * transaction: the offer is closed (only while open and within its 48 hours), its held slot goes
 * back to the benefit, and the ordinary claim takes it again at once — every rule of a claim is
 * re-checked, and the benefit row stays locked from the return to the claim, so nobody else can take
 * that slot in between. Any refusal (profile incomplete, benefit paused...) undoes everything and
 * the offer stays open until it lapses. The claim statement queues the voucher e-mail in the same
 * transaction; it is rendered once that commits.
 */
export async function claimOffer({ ctx, input }: { ctx: ParentContext; input: WaitlistBenefitInput }) {
  const userId = ctx.user.id;
  const claim = await ctx.db.transaction(async (tx) => {
    const now = ctx.clock.now().toISOString();
    const [offer] = await queryRows<{ id: string }>(
      tx,
      sql`
      with target as (
        select id from waitlist_entries
        where discount_id = ${input.discountId} and user_id = ${userId} and status = 'offered' and offer_expires_at > ${now}::timestamptz
        for update
      ),
      closed as (
        update waitlist_entries w set status = 'claimed', ended_at = ${now}::timestamptz
        from target where w.id = target.id
        returning w.id
      ),
      back as (
        update discounts d set number_of_students = d.number_of_students + 1
        from closed where d.id = ${input.discountId}
      )
      select id from closed`,
    );
    // No open offer of this parent for this benefit (lapsed, declined, used, or never made).
    if (!offer) throw new AppError("NOT_FOUND", { title: w.offerGoneTitle, description: w.offerGoneDescription });
    const claim = await claimInTransaction(tx, ctx.clock, userId, input.discountId);
    await queryRows(tx, sql`update waitlist_entries set transaction_id = ${claim.transactionId} where id = ${offer.id}`);
    return claim;
  });
  await renderVoucherEmail(ctx, claim);
  return { transactionId: claim.transactionId, voucherCode: claim.voucherCode };
}
