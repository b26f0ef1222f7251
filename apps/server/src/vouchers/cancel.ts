import { schema, type Database } from "@elo/db";
import type { CancelReason } from "@elo/shared";
import { eq, sql, type SQL } from "drizzle-orm";
import type { AppDeps } from "../deps";
import { enqueueTemplate, voucherCancelledEmail } from "../mail/templates";
import { offerFreeSlots } from "../waitlist/offers";
import { endReservedVoucher, type EndedVoucher } from "./end";

/**
 * Cancels one reserved voucher with a reason and returns its slot, in one transaction with the
 * parent's e-mail when `notifyParent` (decision 122): the e-mail exists exactly when the
 * cancellation does. The freed slot is offered to the benefit's waitlist first (decision 123). Null when the voucher selected by `target` is no longer reserved.
 */
export function cancelReservedVoucher(
  deps: Pick<AppDeps, "db" | "clock" | "mailer" | "config">,
  target: SQL,
  opts: { reason: CancelReason; by: string; notifyParent: boolean },
): Promise<EndedVoucher | null> {
  return deps.db.transaction(async (tx) => {
    const ended = await endReservedVoucher(tx, target, {
      status: "cancelado",
      now: deps.clock.now(),
      set: sql`cancel_reason = ${opts.reason}::cancel_reason, cancelled_by = ${opts.by}`,
    });
    if (!ended) return null;
    if (opts.notifyParent && ended.user_id) await notifyParent(deps, tx, ended, opts.reason);
    await offerFreeSlots(deps, tx, ended.discount_id);
    return ended;
  });
}

async function notifyParent(deps: Pick<AppDeps, "mailer" | "config">, tx: Database, ended: EndedVoucher, reason: CancelReason) {
  const { users, profiles, discounts, schools } = schema;
  const [row] = await tx
    .select({ email: users.email, parentName: profiles.fullName, className: discounts.className, schoolName: schools.name })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .innerJoin(discounts, eq(discounts.id, ended.discount_id))
    .innerJoin(schools, eq(schools.id, ended.school_id))
    .where(eq(users.id, ended.user_id!));
  if (!row) return;
  await enqueueTemplate(deps, tx, voucherCancelledEmail, row.email, { userId: ended.user_id!, aboutUserId: null }, {
    parentName: row.parentName,
    voucherCode: ended.voucher_code,
    schoolName: row.schoolName,
    className: row.className,
    reason,
  });
}
