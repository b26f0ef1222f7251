import { schema } from "@elo/db";
import type { ClaimCreateInput } from "@elo/shared";
import { eq } from "drizzle-orm";
import { saoPauloDayPlus } from "../../lib/calendar";
import { enqueueTemplate, voucherEmail } from "../../mail/templates";
import type { Context } from "../../trpc/init";
import { claimDiscount } from "./claim-discount";

type AuthedContext = Context & { user: NonNullable<Context["user"]> };

/** claim.create: takes a slot and a voucher in one transaction, then e-mails the voucher. */
export async function createClaim({ ctx, input }: { ctx: AuthedContext; input: ClaimCreateInput }) {
  const claim = await claimDiscount(ctx, ctx.user.id, input.discountId);

  // After commit: a failed enqueue must not undo a claim the parent already holds.
  try {
    const [benefit] = await ctx.db.select({ holdDays: schema.discounts.holdDays }).from(schema.discounts).where(eq(schema.discounts.id, input.discountId));
    const holdDays = benefit?.holdDays ?? null;
    await enqueueTemplate(ctx, ctx.db, voucherEmail, ctx.user.email, {
      parentName: claim.parentName,
      voucherCode: claim.voucherCode,
      transactionId: claim.transactionId,
      validUntil: claim.validUntil,
      hold: holdDays ? { days: holdDays, presentBy: saoPauloDayPlus(claim.claimedAt, holdDays) } : null,
      ...claim.discount,
    });
  } catch (error) {
    ctx.logger.error({ err: error, transactionId: claim.transactionId }, "voucher e-mail could not be queued");
  }

  return { transactionId: claim.transactionId, voucherCode: claim.voucherCode };
}
