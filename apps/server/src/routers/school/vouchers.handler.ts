import { schema } from "@elo/db";
import { schoolMessages, type VoucherCancelInput, type VoucherStatus } from "@elo/shared";
import { aliasedTable, and, desc, eq, not, sql } from "drizzle-orm";
import { actorOf } from "../../access-log/actor";
import { recordDeskListing } from "../../access-log/listings";
import { recordDeskView } from "../../access-log/record";
import { cancelReservedVoucher } from "../../vouchers/cancel";
import { joinedVoucherColumns, pastDeadline, presentBy, rawVoucherColumns, shownStatus, voucherOnlyColumns } from "../../vouchers/deadline";
import { AppError } from "../../trpc/errors";
import { todayInBrazil, type StaffContext } from "./staff-context";

const { discountTransactions: tx, discounts, profiles } = schema;
const redeemer = aliasedTable(profiles, "redeemer");

/**
 * Whether the voucher holder's main enrollment is verified and current today: who verified it (the
 * school's name, or null when the platform's team did) and when; null when it is not (issue 21).
 */
function enrollmentVerification(today: string) {
  return sql<{ schoolName: string; byAdmin: boolean; decidedAt: string } | null>`(
    select json_build_object('schoolName', s.name, 'byAdmin', v.decided_by_admin, 'decidedAt', v.decided_at)
    from profiles hp
    join enrollment_proofs v on v.user_id = hp.user_id and v.enrollment_id is null and v.school_id = hp.school_id
    join schools s on s.id = v.school_id
    where hp.user_id = ${tx.userId} and v.status = 'verificado' and v.verified_until >= ${today}::date
    order by v.decided_at desc limit 1)`;
}

function voucherQuery(ctx: StaffContext) {
  const today = todayInBrazil(ctx.clock.now());
  return ctx.db
    .select({
      id: tx.id,
      schoolId: tx.schoolId,
      holderId: tx.userId,
      voucherCode: tx.voucherCode,
      status: shownStatus(joinedVoucherColumns, today),
      presentBy: sql<string | null>`${presentBy(joinedVoucherColumns)}::text`,
      claimedAt: tx.claimedAt,
      validUntil: tx.validUntil,
      redeemedAt: tx.redeemedAt,
      endedAt: tx.endedAt,
      cancelReason: tx.cancelReason,
      cancelledByParent: sql<boolean>`coalesce(${tx.cancelledBy} = ${tx.userId}, false)`,
      redeemedByName: redeemer.fullName,
      studentName: profiles.studentName,
      parentName: profiles.fullName,
      className: discounts.className,
      discountPercentage: discounts.discountPercentage,
      monthlyFee: discounts.monthlyFee,
      discountedFee: discounts.discountedFee,
      enrollmentVerification: enrollmentVerification(today),
    })
    .from(tx)
    .innerJoin(discounts, eq(discounts.id, tx.discountId))
    .leftJoin(profiles, eq(profiles.userId, tx.userId))
    .leftJoin(redeemer, eq(redeemer.userId, tx.redeemedBy));
}

/**
 * Finds a voucher of this school by its code; another school's code is refused without its details.
 * What the desk saw is recorded for the holder's 'Quem viu' list (issue 27): lookup, confirmation or cancellation.
 */
export async function lookupVoucher({ ctx, input }: { ctx: StaffContext; input: { code: string } }, action: "lookup" | "confirm" | "cancel" = "lookup") {
  const [row] = await voucherQuery(ctx).where(eq(tx.voucherCode, input.code));
  if (!row) throw new AppError("NOT_FOUND", schoolMessages.voucherNotFound);
  if (row.schoolId !== ctx.schoolId) throw new AppError("FORBIDDEN", schoolMessages.voucherOtherSchool);
  const { schoolId: _school, holderId, ...voucher } = row;
  if (holderId) await recordDeskView(ctx.db, await actorOf(ctx.db, ctx, ctx.user.id, ctx.schoolId), voucher.id, action, ctx.clock.now());
  return voucher;
}

/**
 * Marks a voucher used, exactly once: one conditional UPDATE that only a reserved, unexpired voucher
 * of this school matches; when it matches nothing, the lookup says why.
 */
export async function confirmVoucher({ ctx, input }: { ctx: StaffContext; input: { code: string } }) {
  const now = ctx.clock.now();
  const [done] = await ctx.db
    .update(tx)
    .set({ status: "utilizado", redeemedAt: now, redeemedBy: ctx.user.id })
    .where(and(eq(tx.voucherCode, input.code), eq(tx.schoolId, ctx.schoolId), eq(tx.status, "reservado"), not(pastDeadline(voucherOnlyColumns, todayInBrazil(now)))))
    .returning({ id: tx.id });
  const voucher = await lookupVoucher({ ctx, input }, "confirm");
  if (done) return voucher;
  throw notReserved(voucher.status);
}

/** Why a voucher the desk acted on was not reserved any more. */
function notReserved(status: VoucherStatus) {
  const message: Record<VoucherStatus, string> = {
    utilizado: schoolMessages.voucherAlreadyUsed,
    expirado: schoolMessages.voucherExpired,
    cancelado: schoolMessages.voucherAlreadyCancelled,
    reservado: schoolMessages.voucherNotFound,
  };
  return new AppError("CONFLICT", message[status]);
}

/**
 * Cancels a reserved, unexpired voucher of this school with a reason (decision 122): the slot goes
 * back to the benefit and the parent's e-mail is queued, in one transaction; exactly once, however
 * many desks, expiry runs or give-ups race for it. When it matches nothing, the lookup says why.
 */
export async function cancelVoucher({ ctx, input }: { ctx: StaffContext; input: VoucherCancelInput }) {
  const today = todayInBrazil(ctx.clock.now());
  const target = sql`
    select t.id from discount_transactions t join discounts d on d.id = t.discount_id
    where t.voucher_code = ${input.code} and t.school_id = ${ctx.schoolId} and not ${pastDeadline(rawVoucherColumns("t", "d"), today)}`;
  const ended = await cancelReservedVoucher(ctx, target, { reason: input.reason, by: ctx.user.id, notifyParent: true });
  const voucher = await lookupVoucher({ ctx, input }, "cancel");
  if (ended) return voucher;
  throw notReserved(voucher.status);
}

/**
 * The school's latest vouchers (100), optionally of one status. The list shows parents' and
 * children's names: every voucher shown is recorded for its holder's 'Quem viu' (decision 192), in
 * one INSERT, before the rows are returned.
 */
export async function listVouchers({ ctx, input }: { ctx: StaffContext; input: { status: VoucherStatus | null } | undefined }) {
  const today = todayInBrazil(ctx.clock.now());
  const status = input?.status ?? null;
  const filter =
    status === null ? undefined : status === "reservado" || status === "expirado" ? eq(shownStatus(joinedVoucherColumns, today), status) : eq(tx.status, status);
  const [rows, actor] = await Promise.all([
    voucherQuery(ctx).where(and(eq(tx.schoolId, ctx.schoolId), filter)).orderBy(desc(tx.claimedAt)).limit(100),
    actorOf(ctx.db, ctx, ctx.user.id, ctx.schoolId),
  ]);
  await recordDeskListing(ctx.db, actor, rows.filter((r) => r.holderId).map((r) => r.id), ctx.clock.now());
  return rows.map(({ schoolId: _school, holderId: _holder, ...v }) => v);
}
