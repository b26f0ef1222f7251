import type { ClaimCreateInput } from "@elo/shared";
import type { Context } from "../../trpc/init";
import { claimDiscount } from "./claim-discount";
import { renderVoucherEmail } from "./voucher-mail";

type AuthedContext = Context & { user: NonNullable<Context["user"]> };

/** claim.create: takes a slot and a voucher and queues its e-mail in one statement, then renders the e-mail. */
export async function createClaim({ ctx, input }: { ctx: AuthedContext; input: ClaimCreateInput }) {
  const claim = await claimDiscount(ctx, ctx.user.id, input.discountId);
  await renderVoucherEmail(ctx, claim);
  return { transactionId: claim.transactionId, voucherCode: claim.voucherCode };
}
