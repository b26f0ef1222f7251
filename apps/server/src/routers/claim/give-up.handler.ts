import { schema } from "@elo/db";
import { marketplaceMessages as m, type ClaimGiveUpInput } from "@elo/shared";
import { and, eq, sql } from "drizzle-orm";
import { saoPauloDay } from "../../lib/calendar";
import { AppError } from "../../trpc/errors";
import type { Context } from "../../trpc/init";
import { cancelReservedVoucher } from "../../vouchers/cancel";
import { pastDeadline, rawVoucherColumns } from "../../vouchers/deadline";
import { transactionNotFound } from "./errors";

type AuthedContext = Context & { user: NonNullable<Context["user"]> };

/**
 * claim.giveUp: the parent gives up one of their own reserved vouchers from /painel-pais (decision
 * 122). It is cancelled as `desistencia` and its slot returns, exactly once; no e-mail (the parent
 * just did it). Another parent's voucher is not found; one no longer reserved is a conflict.
 */
export async function giveUpVoucher({ ctx, input }: { ctx: AuthedContext; input: ClaimGiveUpInput }) {
  const today = saoPauloDay(ctx.clock.now());
  const target = sql`
    select t.id from discount_transactions t join discounts d on d.id = t.discount_id
    where t.id = ${input.transactionId} and t.user_id = ${ctx.user.id} and not ${pastDeadline(rawVoucherColumns("t", "d"), today)}`;
  const ended = await cancelReservedVoucher(ctx, target, { reason: "desistencia", by: ctx.user.id, notifyParent: false });
  if (ended) return { transactionId: ended.id, status: "cancelado" as const };
  const t = schema.discountTransactions;
  const [own] = await ctx.db.select({ id: t.id }).from(t).where(and(eq(t.id, input.transactionId), eq(t.userId, ctx.user.id)));
  if (!own) throw transactionNotFound();
  throw new AppError("CONFLICT", { title: m.giveUpError, description: m.voucherNotReserved });
}
