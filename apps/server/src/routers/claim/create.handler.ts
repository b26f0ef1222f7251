import type { ClaimCreateInput } from "@elo/shared";
import type { Context } from "../../trpc/init";
import { claimDiscount } from "./claim-discount";
import { enqueueVoucherEmail } from "./voucher-mail";

type AuthedContext = Context & { user: NonNullable<Context["user"]> };

/** claim.create: takes a slot and a voucher in one transaction, then e-mails the voucher. */
export async function createClaim({ ctx, input }: { ctx: AuthedContext; input: ClaimCreateInput }) {
  const claim = await claimDiscount(ctx, ctx.user.id, input.discountId);

  // After commit: a failed enqueue must not undo a claim the parent already holds.
  try {
    await enqueueVoucherEmail(ctx, ctx.db, ctx.user.email, input.discountId, claim);
  } catch (error) {
    ctx.logger.error({ err: error, transactionId: claim.transactionId }, "voucher e-mail could not be queued");
  }

  return { transactionId: claim.transactionId, voucherCode: claim.voucherCode };
}
