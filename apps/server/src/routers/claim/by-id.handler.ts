import { schema } from "@elo/db";
import { voucherDeskAddress, type ClaimByIdInput } from "@elo/shared";
import { and, eq, sql } from "drizzle-orm";
import { saoPauloDay } from "../../lib/calendar";
import { logoAddress } from "../../storage/logo";
import type { Context } from "../../trpc/init";
import { transactionNotFound } from "./errors";
import { joinedVoucherColumns, presentBy, shownStatus } from "../../vouchers/deadline";

type AuthedContext = Context & { user: NonNullable<Context["user"]> };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** claim.byId: the caller's own transaction for /confirmacao-desconto; any other id is not found. */
export async function claimById({ ctx, input }: { ctx: AuthedContext; input: ClaimByIdInput }) {
  if (!UUID.test(input.transactionId)) throw transactionNotFound();
  const t = schema.discountTransactions;
  const d = schema.discounts;
  const s = schema.schools;
  const [row] = await ctx.db
    .select({
      transactionId: t.id,
      voucherCode: t.voucherCode,
      status: shownStatus(joinedVoucherColumns, saoPauloDay(ctx.clock.now())),
      presentBy: sql<string | null>`${presentBy(joinedVoucherColumns)}::text`,
      cancelReason: t.cancelReason,
      claimedAt: t.claimedAt,
      validUntil: t.validUntil,
      className: d.className,
      discountPercentage: d.discountPercentage,
      monthlyFee: d.monthlyFee,
      discountedFee: d.discountedFee,
      discountValidity: d.discountValidity,
      schoolName: s.name,
      schoolLogoUrl: s.logoUrl,
    })
    .from(t)
    .innerJoin(d, eq(d.id, t.discountId))
    .innerJoin(s, eq(s.id, t.schoolId))
    .where(and(eq(t.id, input.transactionId), eq(t.userId, ctx.user.id)));
  if (!row) throw transactionNotFound();
  return {
    ...row,
    schoolLogoUrl: logoAddress(ctx.storage, row.schoolLogoUrl),
    /** What the voucher's QR code encodes: the school desk's address with the code (decision 140). */
    deskUrl: voucherDeskAddress(ctx.config.publicOrigin, row.voucherCode),
  };
}
