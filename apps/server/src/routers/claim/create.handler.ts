import type { ClaimCreateInput } from "@elo/shared";
import { renderQueued, voucherEmail } from "../../mail/templates";
import type { Context } from "../../trpc/init";
import { claimDiscount } from "./claim-discount";

type AuthedContext = Context & { user: NonNullable<Context["user"]> };

/** claim.create: takes a slot and a voucher and queues its e-mail in one statement, then renders the e-mail. */
export async function createClaim({ ctx, input }: { ctx: AuthedContext; input: ClaimCreateInput }) {
  const claim = await claimDiscount(ctx, ctx.user.id, input.discountId);

  // The e-mail is already queued with the claim: if rendering fails here, the mailer renders it from its data.
  try {
    await renderQueued(ctx, claim.outboxId, voucherEmail, {
      parentName: claim.parentName,
      voucherCode: claim.voucherCode,
      transactionId: claim.transactionId,
      validUntil: claim.validUntil,
      ...claim.discount,
    });
  } catch (error) {
    ctx.logger.error({ err: error, transactionId: claim.transactionId }, "voucher e-mail could not be rendered; the mailer will render it");
  }

  return { transactionId: claim.transactionId, voucherCode: claim.voucherCode };
}
