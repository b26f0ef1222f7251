import type { ClaimCreateInput } from "@elo/shared";
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/raw";
import { saoPauloDay } from "../../lib/calendar";
import { claims } from "../../lib/metrics";
import { AppError } from "../../trpc/errors";
import type { Context } from "../../trpc/init";
import { mainEnrollmentVerified } from "../verification/verified";
import { claimDiscount } from "./claim-discount";
import { verificationRequired } from "./errors";
import { renderVoucherEmail } from "./voucher-mail";

type AuthedContext = Context & { user: NonNullable<Context["user"]> };

/** claim.create: takes a slot and a voucher and queues its e-mail in one statement, then renders the e-mail. */
export async function createClaim({ ctx, input }: { ctx: AuthedContext; input: ClaimCreateInput }) {
  const claim = await claimDiscount(ctx, ctx.user.id, input.discountId)
    .catch(async (error: unknown) => {
      if (isUnavailable(error) && (await lacksRequiredVerification(ctx, input.discountId))) throw verificationRequired();
      throw error;
    })
    .catch((error: unknown) => {
      claims.inc({ outcome: "refused", reason: refusalReason(error) });
      throw error;
    });
  claims.inc({ outcome: "committed", reason: "" });

  await renderVoucherEmail(ctx, claim);
  return { transactionId: claim.transactionId, voucherCode: claim.voucherCode };
}

/** The refusal's reason for the metrics: the client's `meta.reason`, else the error's code (a bounded set either way). */
function refusalReason(error: unknown): string {
  if (!(error instanceof AppError)) return "error";
  const reason = error.meta?.reason;
  return typeof reason === "string" ? reason : error.code.toLowerCase();
}

const isUnavailable = (error: unknown) => error instanceof AppError && error.meta?.reason === "unavailable";

/**
 * After a refused claim only, to word the refusal: the benefit requires a verified enrollment and
 * the parent's is not verified (or has lapsed). The rule itself is inside the claim's statement.
 */
async function lacksRequiredVerification(ctx: AuthedContext, discountId: string) {
  const [row] = await queryRows<{ lacks: boolean }>(
    ctx.db,
    sql`select d.requires_verified_enrollment and not ${mainEnrollmentVerified(ctx.user.id, saoPauloDay(ctx.clock.now()))} as lacks
        from discounts d, profiles p where d.id = ${discountId} and p.user_id = ${ctx.user.id}`,
  );
  return row?.lacks === true;
}
